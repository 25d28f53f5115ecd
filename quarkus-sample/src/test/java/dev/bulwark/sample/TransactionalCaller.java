package dev.bulwark.sample;

import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.Transactional;

/**
 * An application method that runs in its own JTA transaction ({@code @Transactional} is outside
 * Bulwark's interceptor) and ends it with a rollback, after Bulwark took its permit.
 */
@ApplicationScoped
public class TransactionalCaller {

  /** The bulkhead's name: one permit. */
  public static final String BULKHEAD = "transactional-caller";

  @Inject TransactionManager transactions;

  /** Runs {@code inside} with the permit held, then fails: the caller's transaction rolls back. */
  @Transactional
  @DistributedBulkhead(name = BULKHEAD, value = 1)
  public void failAfter(Runnable inside) {
    inside.run();
    throw new IllegalStateException("the caller fails after its work");
  }

  /** Runs {@code inside} with the permit held and marks the transaction rollback-only. */
  @Transactional
  @DistributedBulkhead(name = BULKHEAD, value = 1)
  public void rollBackOnlyAfter(Runnable inside) throws SystemException {
    inside.run();
    transactions.setRollbackOnly();
  }
}
