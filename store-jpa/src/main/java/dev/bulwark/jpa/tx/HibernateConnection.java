package dev.bulwark.jpa.tx;

import jakarta.persistence.EntityManager;
import org.hibernate.Session;

/**
 * Hibernate's connection of the current transaction, which it does not unwrap: loaded only when the
 * entity manager is a Hibernate session. Hibernate converts an {@code SQLException} to its {@code
 * JDBCException}, which keeps it as the cause.
 */
final class HibernateConnection {

  private HibernateConnection() {}

  static <T> T run(EntityManager em, SqlWork<T> work) {
    return em.unwrap(Session.class).doReturningWork(work::run);
  }
}
