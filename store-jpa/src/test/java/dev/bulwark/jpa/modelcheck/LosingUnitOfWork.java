package dev.bulwark.jpa.modelcheck;

import dev.bulwark.jpa.tx.UnitOfWork;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.util.function.Function;

/**
 * The store's transactions as one JVM runs them, but able to lose the reply of one: the transaction
 * commits and the store hears a failure, as when the connection breaks after the commit was sent.
 * The failure is one the store does not take for an outage, so that its outage gate (timed on the
 * JVM's clock) stays out of the check; the caller sees the same {@code StoreException} either way.
 */
final class LosingUnitOfWork implements UnitOfWork {

  private final UnitOfWork delegate;
  private boolean loseNextReply;

  LosingUnitOfWork(UnitOfWork delegate) {
    this.delegate = delegate;
  }

  /** The next transaction commits, and its caller is told it failed. */
  void loseNextReply() {
    loseNextReply = true;
  }

  /** Whether a reply was to be lost and no transaction ran to lose it. */
  boolean stillToLose() {
    boolean still = loseNextReply;
    loseNextReply = false;
    return still;
  }

  @Override
  public <T> T inNewTransaction(Function<EntityManager, T> work) {
    T result = delegate.inNewTransaction(work);
    if (loseNextReply) {
      loseNextReply = false;
      throw new PersistenceException("reply lost (model check)");
    }
    return result;
  }
}
