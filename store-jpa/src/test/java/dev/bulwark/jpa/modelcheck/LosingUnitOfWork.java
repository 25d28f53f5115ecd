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
 * Only the transactions of the thread that asked for the loss count: the store's own background
 * work (the look for hand-overs it makes as it opens) must not take the loss meant for a step.
 */
final class LosingUnitOfWork implements UnitOfWork {

  private final UnitOfWork delegate;

  /** Transactions until the one whose reply is lost, that one included; 0: none is lost. */
  private int toLoss;

  /** The thread whose transactions count towards {@link #toLoss}. */
  private volatile Thread losing;

  LosingUnitOfWork(UnitOfWork delegate) {
    this.delegate = delegate;
  }

  /** The next transaction commits, and its caller is told it failed. */
  void loseNextReply() {
    loseReplyOf(1);
  }

  /** The {@code nth} transaction from now (1-based) commits, and its caller is told it failed. */
  void loseReplyOf(int nth) {
    losing = Thread.currentThread();
    toLoss = nth;
  }

  /** Whether a reply was to be lost and no transaction ran to lose it. */
  boolean stillToLose() {
    boolean still = toLoss > 0;
    toLoss = 0;
    return still;
  }

  @Override
  public <T> T inNewTransaction(Function<EntityManager, T> work) {
    T result = delegate.inNewTransaction(work);
    if (Thread.currentThread() == losing && toLoss > 0 && --toLoss == 0) {
      throw new PersistenceException("reply lost (model check)");
    }
    return result;
  }
}
