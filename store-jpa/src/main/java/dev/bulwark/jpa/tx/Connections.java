package dev.bulwark.jpa.tx;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs JDBC statements on the connection an entity manager's transaction uses, so that they are
 * part of that transaction: Hibernate hands its connection to a {@code Work}, EclipseLink (like the
 * JPA specification's other providers that support it) unwraps it. An {@link SQLException} leaves
 * wrapped, with the driver's exception as its cause, for {@link Failure} to classify.
 */
public final class Connections {

  private static final Class<?> HIBERNATE_SESSION = hibernateSession();

  private Connections() {}

  public static <T> T run(EntityManager em, SqlWork<T> work) {
    if (HIBERNATE_SESSION != null && HIBERNATE_SESSION.isInstance(em)) {
      return HibernateConnection.run(em, work);
    }
    Connection connection = em.unwrap(Connection.class);
    if (connection == null) {
      throw new PersistenceException(
          "Bulwark: the entity manager gives no JDBC connection outside a transaction");
    }
    try {
      return work.run(connection);
    } catch (SQLException e) {
      throw new PersistenceException("Bulwark: " + e.getMessage(), e);
    }
  }

  private static Class<?> hibernateSession() {
    try {
      return Class.forName("org.hibernate.Session", false, Connections.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }
}
