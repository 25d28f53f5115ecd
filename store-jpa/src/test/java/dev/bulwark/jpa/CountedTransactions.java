package dev.bulwark.jpa;

import dev.bulwark.jpa.tx.UnitOfWork;
import jakarta.persistence.EntityManager;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The store's transactions, counted when they run on one thread (a test's own): the store's wake-up
 * and cleanup threads run theirs on the same unit, and are left out. Every attempt counts, a run
 * again after a conflict included.
 */
final class CountedTransactions implements UnitOfWork {

  private final UnitOfWork delegate;
  private final Thread counted;
  private final AtomicInteger count = new AtomicInteger();

  CountedTransactions(UnitOfWork delegate, Thread counted) {
    this.delegate = delegate;
    this.counted = counted;
  }

  @Override
  public <T> T inNewTransaction(Function<EntityManager, T> work) {
    if (Thread.currentThread() == counted) {
      count.incrementAndGet();
    }
    return delegate.inNewTransaction(work);
  }

  /** The transactions the counted thread began since the last call; resets the count. */
  int taken() {
    return count.getAndSet(0);
  }
}
