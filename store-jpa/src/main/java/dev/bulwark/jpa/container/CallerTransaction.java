package dev.bulwark.jpa.container;

import jakarta.persistence.PersistenceException;
import jakarta.transaction.InvalidTransactionException;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.util.function.Supplier;

/**
 * Keeps the caller's JTA transaction out of the store's work: suspended while the work runs on the
 * calling thread, resumed afterwards whatever the outcome. So the store's statements never join a
 * transaction the application may roll back, and the caller finds its own transaction as it left
 * it.
 */
final class CallerTransaction {

  private final TransactionManager transactions;

  CallerTransaction(TransactionManager transactions) {
    this.transactions = transactions;
  }

  TransactionManager manager() {
    return transactions;
  }

  /** Runs {@code work} with no JTA transaction on the thread. */
  <T> T suspendedDuring(Supplier<T> work) {
    Transaction caller;
    try {
      caller = transactions.suspend();
    } catch (SystemException e) {
      throw new PersistenceException("Bulwark: the caller's transaction cannot be suspended", e);
    }
    Throwable failure = null;
    try {
      return work.get();
    } catch (RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      if (caller != null) {
        resume(caller, failure);
      }
    }
  }

  private void resume(Transaction caller, Throwable failure) {
    try {
      transactions.resume(caller);
    } catch (InvalidTransactionException | SystemException | IllegalStateException e) {
      PersistenceException notResumed =
          new PersistenceException("Bulwark: the caller's transaction cannot be resumed", e);
      if (failure != null) {
        failure.addSuppressed(notResumed);
      } else {
        throw notResumed;
      }
    }
  }
}
