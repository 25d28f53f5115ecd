package dev.bulwark.jpa.setup;

import java.util.Locale;

/**
 * What differs between the databases the store supports: how to read the database's clock. Every
 * decision about time uses this clock, read once per transaction after the limit's row is locked,
 * never the JVM's.
 */
public enum Dialect {
  /** {@code clock_timestamp()}: the time of the call ({@code now()} is the transaction's start). */
  POSTGRESQL("CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)"),
  /** {@code SYSDATE(6)}: the time of the call ({@code NOW(6)} is the statement's start). */
  MARIADB("CAST(UNIX_TIMESTAMP(SYSDATE(6)) * 1000000 AS SIGNED)"),
  /**
   * H2 2.x has no clock of the call: {@code CURRENT_TIMESTAMP} is the start of the transaction. The
   * store's transactions are short, and a time a little early only lets a lease live that much
   * longer and a rate limit wait that much more.
   */
  H2("CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000000 AS BIGINT)");

  private final String nowMicros;

  Dialect(String nowMicros) {
    this.nowMicros = nowMicros;
  }

  /** A native query answering the database's time in microseconds since the epoch. */
  public String nowMicrosSql() {
    return "SELECT " + nowMicros;
  }

  /**
   * The database's time in microseconds since the epoch as an SQL expression, to read the clock in
   * the same statement as a row: evaluated when the row is projected, after the statement's
   * snapshot is taken.
   */
  public String nowMicros() {
    return nowMicros;
  }

  /** The shipped DDL of this database in the bulwark-jpa jar. */
  public String ddlResource() {
    return "dev/bulwark/jpa/ddl/" + name().toLowerCase(Locale.ROOT) + ".sql";
  }

  /** The dialect of a JDBC URL, or null for a database not supported. */
  public static Dialect ofUrl(String jdbcUrl) {
    if (jdbcUrl.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
      return MARIADB;
    }
    if (jdbcUrl.startsWith("jdbc:h2:")) {
      return H2;
    }
    return null;
  }

  /** The dialect of a database by its JDBC product name, or null for one not supported. */
  public static Dialect ofProduct(String productName) {
    String product = productName.toLowerCase(Locale.ROOT);
    if (product.contains("postgresql")) {
      return POSTGRESQL;
    }
    if (product.contains("mariadb") || product.contains("mysql")) {
      return MARIADB;
    }
    if (product.equals("h2")) {
      return H2;
    }
    return null;
  }
}
