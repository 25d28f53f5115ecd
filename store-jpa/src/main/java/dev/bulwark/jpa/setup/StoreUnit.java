package dev.bulwark.jpa.setup;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.spi.PersistenceProvider;
import jakarta.persistence.spi.PersistenceProviderResolverHolder;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

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

  /** Opens the unit the settings describe, or fails with a message naming the setting at fault. */
  public static StoreUnit open(JpaSettings settings) {
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
    HikariDataSource pool = pool(settings);
    try {
      Dialect dialect;
      boolean tablesMissing;
      try (Connection connection = pool.getConnection()) {
        dialect = dialect(connection.getMetaData(), settings);
        tablesMissing = !missingTables(connection.getMetaData(), names).isEmpty();
      }
      if (tablesMissing && !settings.createSchema()) {
        throw missingTables(settings, names, dialect, pool);
      }
      PersistenceProvider provider = provider(settings);
      Map<String, Object> properties =
          new HashMap<>(namingProperties(provider.getClass().getName(), names));
      if (tablesMissing) {
        properties.put(GENERATION, "create");
      }
      EntityManagerFactory factory =
          provider.createContainerEntityManagerFactory(
              new StorePersistenceUnit(provider.getClass().getName(), pool), properties);
      StoreUnit unit = new StoreUnit(factory, dialect, names, pool);
      unit.probeTables(settings);
      return unit;
    } catch (SQLException e) {
      pool.close();
      throw new InvalidJpaSettingException(
          "bulwark.jpa.url="
              + settings.url()
              + ": the database could not be read ("
              + sanitized(e.getMessage(), settings)
              + ")",
          e);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private static StoreUnit openNamed(JpaSettings settings, TableNames names) {
    Map<String, Object> properties = new HashMap<>();
    if (onClassPath("org.hibernate.boot.model.naming.PhysicalNamingStrategy")) {
      properties.putAll(HibernateTableNames.properties(names));
    }
    if (onClassPath("org.eclipse.persistence.sessions.SessionCustomizer")) {
      properties.putAll(EclipseLinkTableNames.properties(names));
    }
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
    StoreUnit unit = new StoreUnit(factory, dialect, names, null);
    unit.probeTables(settings);
    return unit;
  }

  private static HikariDataSource pool(JpaSettings settings) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("bulwark-jpa");
    config.setJdbcUrl(settings.url());
    if (settings.user() != null) {
      config.setUsername(settings.user());
    }
    if (settings.password() != null) {
      config.setPassword(settings.password());
    }
    config.setMaximumPoolSize(settings.poolSize());
    config.setMinimumIdle(1);
    config.setConnectionTimeout(Math.max(250, settings.connectTimeout().toMillis()));
    config.setValidationTimeout(Math.max(250, settings.connectTimeout().toMillis() / 2));
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    try {
      return new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw connectFailure(settings, e);
    }
  }

  /** Why the pool could not connect, naming the setting: credentials or the URL. */
  private static InvalidJpaSettingException connectFailure(
      JpaSettings settings, RuntimeException e) {
    SQLException sql = null;
    for (Throwable t = e; t != null && sql == null; t = t.getCause()) {
      if (t instanceof SQLException found) {
        sql = found;
      }
    }
    String state = sql == null || sql.getSQLState() == null ? "" : sql.getSQLState();
    String detail = sanitized(sql != null ? sql.getMessage() : e.getMessage(), settings);
    if (state.startsWith("28") || (sql != null && sql.getErrorCode() == 1045)) {
      return new InvalidJpaSettingException(
          "bulwark.jpa.user / bulwark.jpa.password: "
              + settings.describe()
              + " refused them ("
              + detail
              + ")",
          null);
    }
    return new InvalidJpaSettingException(
        "bulwark.jpa.url=" + settings.url() + ": cannot connect (" + detail + ")", null);
  }

  /** {@code message} without the configured password, whatever a driver chose to quote. */
  private static String sanitized(String message, JpaSettings settings) {
    String text = String.valueOf(message);
    String password = settings.password();
    return password == null || password.isEmpty() ? text : text.replace(password, "***");
  }

  private static Dialect dialect(DatabaseMetaData metaData, JpaSettings settings)
      throws SQLException {
    Dialect dialect = Dialect.ofProduct(metaData.getDatabaseProductName());
    if (dialect == null) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.url="
              + settings.url()
              + ": "
              + metaData.getDatabaseProductName()
              + " is not supported; PostgreSQL, MariaDB and H2 are");
    }
    return dialect;
  }

  /** The store's tables that the database does not have, by JDBC metadata. */
  private static List<String> missingTables(DatabaseMetaData metaData, TableNames names)
      throws SQLException {
    List<String> missing = new java.util.ArrayList<>();
    for (String table : names.all()) {
      if (!tableExists(metaData, table)) {
        missing.add(table);
      }
    }
    return missing;
  }

  private static boolean tableExists(DatabaseMetaData metaData, String table) throws SQLException {
    String catalog = metaData.getConnection().getCatalog();
    String schema = metaData.getConnection().getSchema();
    for (String candidate :
        List.of(table, table.toLowerCase(Locale.ROOT), table.toUpperCase(Locale.ROOT))) {
      try (ResultSet tables =
          metaData.getTables(catalog, schema, escaped(candidate, metaData), null)) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }

  /** The name as a pattern that matches only itself ({@code _} is a wildcard in metadata calls). */
  private static String escaped(String name, DatabaseMetaData metaData) throws SQLException {
    String escape = metaData.getSearchStringEscape();
    return escape == null ? name : name.replace("_", escape + "_");
  }

  private static InvalidJpaSettingException missingTables(
      JpaSettings settings, TableNames names, Dialect dialect, DataSource pool)
      throws SQLException {
    List<String> missing;
    try (Connection connection = pool.getConnection()) {
      missing = missingTables(connection.getMetaData(), names);
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

  private static PersistenceProvider provider(JpaSettings settings) {
    List<PersistenceProvider> providers =
        PersistenceProviderResolverHolder.getPersistenceProviderResolver()
            .getPersistenceProviders();
    if (providers.isEmpty()) {
      throw new InvalidJpaSettingException(
          "bulwark.store=jpa: no JPA provider on the class path (add Hibernate ORM or"
              + " EclipseLink)");
    }
    if (settings.provider() == null) {
      return providers.get(0);
    }
    return providers.stream()
        .filter(p -> p.getClass().getName().equals(settings.provider()))
        .findFirst()
        .orElseThrow(
            () ->
                new InvalidJpaSettingException(
                    "bulwark.jpa.provider="
                        + settings.provider()
                        + ": not on the class path; found "
                        + providers.stream().map(p -> p.getClass().getName()).toList()));
  }

  /**
   * The properties that make the provider named {@code providerClassName} map the store's entities
   * to {@code names}: for a unit a container builds (JTA), as for the store's own.
   *
   * @throws InvalidJpaSettingException for a provider other than Hibernate and EclipseLink with a
   *     prefix other than the default
   */
  public static Map<String, Object> namingProperties(String providerClassName, TableNames names) {
    String name = providerClassName;
    if (name.startsWith("org.hibernate.")) {
      return HibernateTableNames.properties(names);
    }
    if (name.startsWith("org.eclipse.persistence.")) {
      return EclipseLinkTableNames.properties(names);
    }
    if (!names.prefix().equals(JpaSettings.DEFAULT_TABLE_PREFIX)) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.table-prefix="
              + names.prefix()
              + ": the store can set a table prefix on Hibernate and EclipseLink only, not on "
              + name);
    }
    return Map.of();
  }

  private static boolean onClassPath(String className) {
    try {
      Class.forName(className, false, StoreUnit.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /**
   * Reads each table once through the mapping, so that a table that is missing or does not match
   * the entities fails the start rather than the first call.
   */
  private void probeTables(JpaSettings settings) {
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
        close();
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
