package dev.bulwark.jpa;

import dev.bulwark.jpa.setup.JpaSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;

/**
 * What the model check ({@code dev.bulwark.jpa.modelcheck}) needs of the test database: the store's
 * tables under a fresh table prefix, in a schema of their own on the PostgreSQL test server, whose
 * clock the check sets. The store reads the time through {@code clock_timestamp()} ({@link
 * dev.bulwark.jpa.setup.Dialect}); the schema holds a function of that name reading a one-row
 * table, and the store's connections search the schema before {@code pg_catalog}, so the store runs
 * unchanged on a clock the check writes. Nothing in the store's code knows of it.
 */
public final class ModelCheckDatabase implements AutoCloseable {

  private static final TestDatabase DATABASE = TestDatabase.POSTGRESQL;

  private final String prefix = JpaStoreFixture.newPrefix();
  private final String schema = "mc" + prefix.substring(0, prefix.length() - 1);
  private final String url;
  private final Connection connection;

  public ModelCheckDatabase() {
    String base = DATABASE.url();
    this.url = base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema + ",pg_catalog";
    try (Connection setup = DATABASE.connect();
        Statement statement = setup.createStatement()) {
      statement.execute("CREATE SCHEMA " + schema);
      statement.execute("CREATE TABLE " + schema + ".model_clock (micros BIGINT NOT NULL)");
      statement.execute("INSERT INTO " + schema + ".model_clock VALUES (0)");
      // exact to the microsecond: an interval counts whole microseconds
      statement.execute(
          "CREATE FUNCTION "
              + schema
              + ".clock_timestamp() RETURNS timestamptz LANGUAGE sql AS $$ SELECT timestamptz"
              + " 'epoch' + micros * interval '1 microsecond' FROM "
              + schema
              + ".model_clock $$");
      this.connection = DriverManager.getConnection(url, DATABASE.user(), DATABASE.password());
      connection.setAutoCommit(false);
    } catch (SQLException e) {
      throw new AssertionError("cannot set up the model check's schema on " + DATABASE, e);
    }
  }

  /**
   * The store's settings on the schema: no wake-up check and no cleanup of their own in the time a
   * check runs (the check runs both as steps of its own), no schema-generation surprises.
   */
  public JpaSettings settings() {
    Map<String, String> config = DATABASE.config(prefix);
    config.put("url", url);
    config.put("schema-generation", "create");
    config.put("provider", Provider.HIBERNATE.className);
    config.put("wake-up-check-interval", "1h");
    config.put("cleanup-interval", "1h");
    config.put("pool-size", "2");
    return JpaSettings.from(
        k -> Optional.ofNullable(config.get(k.substring(JpaSettings.PREFIX.length()))));
  }

  /** The physical name of the store's table {@code table} ("limit", "claim"). */
  public String table(String table) {
    return prefix + table;
  }

  /**
   * A connection of the check's own on the schema, not auto-committing: to read and rewrite the
   * store's rows between steps.
   */
  public Connection connection() {
    return connection;
  }

  /** Sets the database's clock, microseconds since the epoch, in the current transaction. */
  public void setClockMicros(long micros) throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement("UPDATE model_clock SET micros = ?")) {
      update.setLong(1, micros);
      update.executeUpdate();
    }
  }

  public String describe() {
    return DATABASE + ", schema " + schema;
  }

  @Override
  public void close() {
    try (Statement statement = connection.createStatement()) {
      connection.rollback();
      connection.setAutoCommit(true);
      statement.execute("DROP SCHEMA " + schema + " CASCADE");
      connection.close();
    } catch (SQLException e) {
      throw new AssertionError("cannot drop the model check's schema " + schema, e);
    }
  }
}
