package dev.bulwark.jpa.container;

import jakarta.persistence.EntityManagerFactory;
import javax.sql.DataSource;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The data source of a Hibernate unit's connection provider. Kept apart so that Hibernate's classes
 * are loaded only for a unit that Hibernate runs.
 */
final class HibernateDataSource {

  private HibernateDataSource() {}

  /** The data source, or null when the connection provider does not unwrap to one. */
  static DataSource of(EntityManagerFactory factory) {
    ConnectionProvider connections =
        factory
            .unwrap(SessionFactoryImplementor.class)
            .getServiceRegistry()
            .getService(ConnectionProvider.class);
    return connections != null && connections.isUnwrappableAs(DataSource.class)
        ? connections.unwrap(DataSource.class)
        : null;
  }
}
