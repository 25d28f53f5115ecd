package dev.bulwark.jpa.container;

import dev.bulwark.jpa.tx.UnitOfWork;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.HeuristicRollbackException;
import jakarta.transaction.NotSupportedException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import java.util.function.Function;

/**
 * Each operation in a JTA transaction of its own on the application's persistence unit (a
 * container-managed, JTA unit such as Quarkus' Hibernate ORM): the caller's transaction is
 * suspended, a new one begun, the work done by an entity manager joined to it, committed, and the
 * caller's transaction resumed. A rollback of the caller's transaction therefore never undoes a
 * grant or a release.
 */
final class JtaUnitOfWork implements UnitOfWork {

  private final EntityManagerFactory factory;
  private final CallerTransaction caller;

  JtaUnitOfWork(EntityManagerFactory factory, CallerTransaction caller) {
    this.factory = factory;
    this.caller = caller;
  }

  @Override
  public <T> T inNewTransaction(Function<EntityManager, T> work) {
    return caller.suspendedDuring(() -> inOwnTransaction(work));
  }

  private <T> T inOwnTransaction(Function<EntityManager, T> work) {
    TransactionManager transactions = caller.manager();
    try {
      transactions.begin();
    } catch (NotSupportedException | SystemException e) {
      throw new PersistenceException("Bulwark: a transaction of the store cannot begin", e);
    }
    EntityManager em = null;
    try {
      em = factory.createEntityManager();
      em.joinTransaction();
      T result = work.apply(em);
      em.flush();
      commit(transactions);
      return result;
    } catch (RuntimeException | Error e) {
      rollBack(transactions, e);
      throw e;
    } finally {
      if (em != null) {
        em.close();
      }
    }
  }

  /** Commits; a failed commit leaves as a PersistenceException with the driver's cause. */
  private static void commit(TransactionManager transactions) {
    try {
      transactions.commit();
    } catch (RollbackException
        | HeuristicMixedException
        | HeuristicRollbackException
        | SystemException e) {
      throw new PersistenceException("Bulwark: the store's transaction did not commit", e);
    }
  }

  private static void rollBack(TransactionManager transactions, Throwable failure) {
    try {
      if (transactions.getStatus() != Status.STATUS_NO_TRANSACTION) {
        transactions.rollback();
      }
    } catch (SystemException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
