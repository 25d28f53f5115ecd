package dev.bulwark.jpa.container;

import dev.bulwark.core.log.BulwarkLog;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import javax.sql.DataSource;

/**
 * The data source behind an application's persistence unit, for the connection that LISTENs for
 * hand-overs on PostgreSQL: the one the unit's properties hold, else the one Hibernate's connection
 * provider works on (Quarkus' Agroal data source). Null when the unit does not show it: the store
 * then relies on the wake-up check alone.
 */
final class UnitDataSource {

  private static final BulwarkLog LOG = BulwarkLog.of(UnitDataSource.class);

  private static final List<String> KEYS =
      List.of(
          "jakarta.persistence.nonJtaDataSource",
          "jakarta.persistence.jtaDataSource",
          "javax.persistence.nonJtaDataSource",
          "javax.persistence.jtaDataSource");

  private UnitDataSource() {}

  static DataSource of(EntityManagerFactory factory) {
    for (String key : KEYS) {
      if (factory.getProperties().get(key) instanceof DataSource dataSource) {
        return dataSource;
      }
    }
    try {
      return HibernateDataSource.of(factory);
    } catch (RuntimeException | LinkageError e) {
      // not Hibernate, or a Hibernate that does not say
      LOG.debug("Bulwark: the persistence unit does not show its data source", e);
      return null;
    }
  }
}
