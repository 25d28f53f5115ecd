package dev.bulwark.jpa.setup;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * Whether the store's tables are there and match its entities, checked at start so that a missing
 * or different table fails the start rather than the first call.
 */
final class TableProbe {

  private TableProbe() {}

  /**
   * Reads each table once through the mapping of {@code factory}.
   *
   * @throws InvalidJpaSettingException naming the table prefix and the shipped DDL
   * @throws dev.bulwark.spi.StoreException when the connection went away while reading (an H2 file
   *     changing its serving process)
   */
  static void readEach(
      EntityManagerFactory factory, JpaSettings settings, TableNames names, Dialect dialect) {
    for (String entity : List.of("LimitRow", "ClaimRow", "RateGrantRow")) {
      EntityManager em = factory.createEntityManager();
      try {
        em.getTransaction().begin();
        em.createQuery("SELECT COUNT(e) FROM " + entity + " e WHERE e.id = ''", Long.class)
            .getSingleResult();
        em.getTransaction().rollback();
        em.close();
      } catch (PersistenceException e) {
        em.close();
        if (H2FileHandOver.isPassing(e, true)) {
          throw H2FileHandOver.unavailable(settings, e);
        }
        throw new InvalidJpaSettingException(
            settings.describe()
                + ": the store's tables (bulwark.jpa.table-prefix="
                + names.prefix()
                + ") cannot be read: create them with "
                + dialect.ddlResource()
                + " from the bulwark-jpa jar, or set bulwark.jpa.schema-generation=create ("
                + e.getMessage()
                + ")",
            e);
      }
    }
  }

  /** The failure of a start on a database without the store's tables and no schema generation. */
  static InvalidJpaSettingException missingTables(
      JpaSettings settings, TableNames names, Dialect dialect, DataSource pool)
      throws SQLException {
    List<String> missing;
    try (Connection connection = pool.getConnection()) {
      missing = DatabaseMetadata.missingTables(connection.getMetaData(), names);
    }
    return new InvalidJpaSettingException(
        settings.describe()
            + " has no table "
            + String.join(", ", missing)
            + " (bulwark.jpa.table-prefix="
            + names.prefix()
            + "): create them with "
            + dialect.ddlResource()
            + " from the bulwark-jpa jar, or set bulwark.jpa.schema-generation=create");
  }
}
