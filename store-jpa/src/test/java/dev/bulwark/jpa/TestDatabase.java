package dev.bulwark.jpa;

import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.tck.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * A database the tests run the store on: H2 in memory (in this JVM), or the PostgreSQL and MariaDB
 * servers {@link TestServices} finds (skipped, or failed under CI, when there is none).
 */
enum TestDatabase {
  H2(Dialect.H2),
  POSTGRESQL(Dialect.POSTGRESQL),
  MARIADB(Dialect.MARIADB);

  /** One in-memory H2 database for the whole test run; tests keep apart by table prefix. */
  static final String H2_URL = "jdbc:h2:mem:bulwark-tests;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";

  final Dialect dialect;

  TestDatabase(Dialect dialect) {
    this.dialect = dialect;
  }

  String url() {
    return switch (this) {
      case H2 -> H2_URL;
      case POSTGRESQL -> TestServices.postgresql().url();
      case MARIADB -> withoutTls(TestServices.mariadb().url());
    };
  }

  /** MariaDB Connector/J 3+ asks for TLS by default; the test servers have none. */
  private static String withoutTls(String url) {
    return url.contains("sslMode=")
        ? url
        : url + (url.contains("?") ? "&" : "?") + "sslMode=disable";
  }

  String user() {
    return switch (this) {
      case H2 -> "sa";
      case POSTGRESQL -> TestServices.postgresql().user();
      case MARIADB -> TestServices.mariadb().user();
    };
  }

  String password() {
    return switch (this) {
      case H2 -> "";
      case POSTGRESQL -> TestServices.postgresql().password();
      case MARIADB -> TestServices.mariadb().password();
    };
  }

  /** The store's configuration on this database (without the {@code bulwark.jpa.} prefix). */
  Map<String, String> config(String tablePrefix) {
    Map<String, String> config = new HashMap<>();
    config.put("url", url());
    config.put("user", user());
    config.put("password", password());
    config.put("table-prefix", tablePrefix);
    config.put("wake-up-check-interval", "100ms");
    config.put("pool-size", "4");
    return config;
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), user(), password());
  }

  /** The database's clock, in microseconds since the epoch, read as the store reads it. */
  long nowMicros() {
    try (Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(dialect.nowMicrosSql())) {
      result.next();
      return result.getLong(1);
    } catch (SQLException e) {
      throw new AssertionError("cannot read the clock of " + this, e);
    }
  }

  /** Rows in the store's table {@code table} (without prefix) under {@code prefix}. */
  long rows(String prefix, String table) {
    try (Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM " + prefix + table)) {
      result.next();
      return result.getLong(1);
    } catch (SQLException e) {
      throw new AssertionError("cannot count " + prefix + table + " on " + this, e);
    }
  }

  /** Drops the store's tables under {@code prefix} (test-made prefixes only). */
  void dropTables(String prefix) {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      for (String table : dev.bulwark.jpa.setup.TableNames.TABLES) {
        statement.execute("DROP TABLE IF EXISTS " + prefix + table);
      }
      if (!connection.getAutoCommit()) {
        connection.commit();
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot drop the tables " + prefix + "* on " + this, e);
    }
  }
}
