package dev.bulwark.jpa.tx;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import java.util.function.Function;

/** A resource-local transaction on a fresh entity manager of the store's own unit. */
public final class ResourceLocalUnitOfWork implements UnitOfWork {

  private final EntityManagerFactory factory;

  public ResourceLocalUnitOfWork(EntityManagerFactory factory) {
    this.factory = factory;
  }

  @Override
  public <T> T inNewTransaction(Function<EntityManager, T> work) {
    EntityManager em = factory.createEntityManager();
    try {
      EntityTransaction tx = em.getTransaction();
      tx.begin();
      try {
        T result = work.apply(em);
        tx.commit();
        return result;
      } catch (RuntimeException | Error e) {
        if (tx.isActive()) {
          try {
            tx.rollback();
          } catch (RuntimeException rollbackFailure) {
            e.addSuppressed(rollbackFailure);
          }
        }
        throw e;
      }
    } finally {
      em.close();
    }
  }
}
