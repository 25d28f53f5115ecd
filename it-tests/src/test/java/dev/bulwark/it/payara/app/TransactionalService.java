package dev.bulwark.it.payara.app;

import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * A method in a JTA transaction of its own ({@code @Transactional} sits outside Bulwark's
 * interceptor) that fails once its gate opens, so the transaction rolls back after Bulwark took the
 * permit. Deployed only with the JPA store.
 */
@ApplicationScoped
public class TransactionalService {

  /** One permit. */
  public static final String BULKHEAD = "payara-transactional";

  @Inject Gates gates;

  @Transactional
  @DistributedBulkhead(name = BULKHEAD, value = 1)
  public String failAfterGate(String gate, int id) {
    gates.get(gate).pass(id);
    throw new IllegalStateException("call " + id + " fails: its transaction rolls back");
  }
}
