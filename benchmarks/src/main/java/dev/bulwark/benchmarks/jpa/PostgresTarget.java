package dev.bulwark.benchmarks.jpa;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The PostgreSQL server every library of the JPA benchmark talks to, and the benchmark's own schema
 * on it ({@value #SCHEMA}), so that its tables never meet anybody else's. Environment variables
 * rather than system properties, because JMH's forked JVMs inherit the environment but not {@code
 * -D}.
 */
public final class PostgresTarget {

  /** {@code BULWARK_BENCH_JDBC_URL}, by default the local server's database {@code test}. */
  public static final String URL =
      System.getenv()
          .getOrDefault("BULWARK_BENCH_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/test");

  public static final String USER =
      System.getenv().getOrDefault("BULWARK_BENCH_JDBC_USER", "postgres");
  public static final String PASSWORD =
      System.getenv().getOrDefault("BULWARK_BENCH_JDBC_PASSWORD", "");
  static final String SCHEMA = "bulwark_bench";

  /** At least as many connections as benchmark threads, so nobody waits for the pool. */
  static final int POOL_SIZE = 16;

  private PostgresTarget() {}

  /** The URL with the benchmark's schema as the current one. */
  static String schemaUrl() {
    return schemaUrl(SCHEMA);
  }

  /** The URL with {@code schema} as the current one. */
  static String schemaUrl(String schema) {
    return URL + (URL.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  /**
   * Drops {@code schema} with everything in it and creates it empty: a store whose tables another
   * build created (perhaps with other columns) then creates its own.
   */
  static String freshSchema(String schema) {
    try (Connection connection = DriverManager.getConnection(URL, USER, PASSWORD);
        Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      statement.execute("CREATE SCHEMA " + schema);
      return schema;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create schema " + schema + " at " + URL, e);
    }
  }

  /** Creates the benchmark's schema if it is missing and runs {@code ddl} in it. */
  static void prepare(String... ddl) {
    try (Connection connection = DriverManager.getConnection(URL, USER, PASSWORD);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
      statement.execute("SET search_path TO " + SCHEMA);
      for (String sql : ddl) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot prepare schema " + SCHEMA + " at " + URL, e);
    }
  }

  /** A HikariCP pool of {@link #POOL_SIZE} connections on the benchmark's schema. */
  static HikariDataSource pool(String name) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(schemaUrl());
    config.setUsername(USER);
    config.setPassword(PASSWORD);
    config.setMaximumPoolSize(POOL_SIZE);
    config.setMinimumIdle(POOL_SIZE);
    return new HikariDataSource(config);
  }
}
