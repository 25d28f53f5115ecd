package dev.bulwark.jpa.setup;

import com.zaxxer.hikari.HikariDataSource;
import dev.bulwark.spi.StoreException;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.spi.PersistenceProvider;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The entity manager factory the store works with, the database's dialect, and the pool the store
 * opened for it (none when it uses the application's persistence unit). Opening checks everything a
 * start can check: the connection, the credentials, the provider, the tables.
 *
 * @param factory the store's entity manager factory
 * @param dialect the database's dialect
 * @param names the store's table names
 * @param pool the store's own pool, or null
 */
public record StoreUnit(
    EntityManagerFactory factory, Dialect dialect, TableNames names, HikariDataSource pool)
    implements AutoCloseable {

  private static final String GENERATION = "jakarta.persistence.schema-generation.database.action";

  /** Between two tries of a start that met a hand-over: H2 serves a file again within seconds. */
  private static final long RETRY_PAUSE_MILLIS = 100;

  /**
   * Drops every connection of the store's own pool (those in use once they come back), so that the
   * next calls connect anew; nothing when the store runs on the application's unit.
   */
  public void dropConnections() {
    if (pool != null && pool.getHikariPoolMXBean() != null) {
      pool.getHikariPoolMXBean().softEvictConnections();
    }
  }

  /**
   * Opens the unit the settings describe, or fails with a message naming the setting at fault. A
   * database passing between processes ({@link H2FileHandOver}) is tried again until {@code
   * bulwark.jpa.connect-timeout} has passed.
   *
   * @throws StoreException when the database stayed unavailable that long
   */
  public static StoreUnit open(JpaSettings settings) {
    long deadline = System.nanoTime() + settings.connectTimeout().toNanos();
    while (true) {
      try {
        return openOnce(settings);
      } catch (StoreException unavailable) {
        if (System.nanoTime() - deadline >= 0) {
          throw unavailable;
        }
        try {
          Thread.sleep(RETRY_PAUSE_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw unavailable;
        }
      }
    }
  }

  private static StoreUnit openOnce(JpaSettings settings) {
    TableNames names = new TableNames(settings.tablePrefix());
    if (settings.datasource() != null) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.datasource="
              + settings.datasource()
              + ": a container data source needs the store's container integration, which opens"
              + " the store on the container's transactions; in Java SE set bulwark.jpa.url");
    }
    if (settings.persistenceUnit() != null) {
      return openNamed(settings, names);
    }
    HikariDataSource pool = StorePool.open(settings);
    try {
      Dialect dialect;
      boolean tablesMissing;
      try (Connection connection = pool.getConnection()) {
        dialect = DatabaseMetadata.dialect(connection.getMetaData(), settings);
        tablesMissing = !DatabaseMetadata.missingTables(connection.getMetaData(), names).isEmpty();
      }
      if (tablesMissing && !settings.createSchema()) {
        throw TableProbe.missingTables(settings, names, dialect, pool);
      }
      PersistenceProvider provider = ProviderChoice.of(settings);
      Map<String, Object> properties =
          new HashMap<>(ProviderChoice.namingProperties(provider.getClass().getName(), names));
      if (tablesMissing) {
        properties.put(GENERATION, "create");
      }
      EntityManagerFactory factory =
          provider.createContainerEntityManagerFactory(
              new StorePersistenceUnit(provider.getClass().getName(), pool), properties);
      return new StoreUnit(factory, dialect, names, pool).probed(settings);
    } catch (SQLException e) {
      pool.close();
      if (H2FileHandOver.isPassing(e, true)) {
        throw H2FileHandOver.unavailable(settings, e);
      }
      throw new InvalidJpaSettingException(
          "bulwark.jpa.url="
              + settings.redactedUrl()
              + ": the database could not be read ("
              + ConnectFailures.sanitized(e.getMessage(), settings)
              + ")",
          e);
    } catch (StoreException | InvalidJpaSettingException e) {
      pool.close();
      throw e;
    } catch (RuntimeException e) {
      pool.close();
      // the provider's boot reads the database's metadata too
      if (H2FileHandOver.isPassing(e, true)) {
        throw H2FileHandOver.unavailable(settings, e);
      }
      throw e;
    }
  }

  private static StoreUnit openNamed(JpaSettings settings, TableNames names) {
    Map<String, Object> properties =
        new HashMap<>(ProviderChoice.namingPropertiesOfEveryProvider(names));
    if (settings.createSchema()) {
      properties.put(GENERATION, "create");
    }
    EntityManagerFactory factory;
    try {
      factory = Persistence.createEntityManagerFactory(settings.persistenceUnit(), properties);
    } catch (PersistenceException e) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.persistence-unit="
              + settings.persistenceUnit()
              + ": no such persistence unit could be opened ("
              + e.getMessage()
              + ")",
          e);
    }
    if (factory == null) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.persistence-unit="
              + settings.persistenceUnit()
              + ": no persistence unit of that name on the class path");
    }
    Object url = factory.getProperties().get("jakarta.persistence.jdbc.url");
    Dialect dialect = url == null ? null : Dialect.ofUrl(url.toString());
    if (dialect == null) {
      factory.close();
      throw new InvalidJpaSettingException(
          "bulwark.jpa.persistence-unit="
              + settings.persistenceUnit()
              + ": the store cannot tell its database (jakarta.persistence.jdbc.url is "
              + url
              + "); PostgreSQL, MariaDB and H2 are supported");
    }
    return new StoreUnit(factory, dialect, names, null).probed(settings);
  }

  /** This unit once its tables were read through the mapping; closed when they cannot be. */
  private StoreUnit probed(JpaSettings settings) {
    try {
      TableProbe.readEach(factory, settings, names, dialect);
      return this;
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      factory.close();
    } finally {
      if (pool != null) {
        pool.close();
      }
    }
  }
}
