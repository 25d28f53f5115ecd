package dev.bulwark.jpa.setup;

import java.util.Locale;

/**
 * What differs between the databases the store supports: how to read the database's clock, and
 * whether the driver sends several statements as one. Every decision about time uses this clock,
 * read once per transaction after the limit's row is locked, never the JVM's.
 */
public enum Dialect {
  /** {@code clock_timestamp()}: the time of the call ({@code now()} is the transaction's start). */
  POSTGRESQL("CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)", true),
  /** {@code SYSDATE(6)}: the time of the call ({@code NOW(6)} is the statement's start). */
  MARIADB("CAST(UNIX_TIMESTAMP(SYSDATE(6)) * 1000000 AS SIGNED)", false),
  /**
   * H2 2.x has no clock of the call: {@code CURRENT_TIMESTAMP} is the start of the transaction. The
   * store's transactions are short, and a time a little early only lets a lease live that much
   * longer and a rate limit wait that much more.
   */
  H2("CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000000 AS BIGINT)", false);

  private final String nowMicros;
  private final boolean sendsStatementsTogether;

  Dialect(String nowMicros, boolean sendsStatementsTogether) {
    this.nowMicros = nowMicros;
    this.sendsStatementsTogether = sendsStatementsTogether;
  }

  /** A native query answering the database's time in microseconds since the epoch. */
  public String nowMicrosSql() {
    return "SELECT " + nowMicros;
  }

  /** An SQL expression of the database's time in microseconds since the epoch. */
  public String nowMicros() {
    return nowMicros;
  }

  /**
   * Whether the driver takes several statements, separated by semicolons, in one prepared statement
   * and sends them in one round trip, the server running them one after the other (PostgreSQL's
   * driver does; MariaDB's only with {@code allowMultiQueries}, which the store cannot count on).
   */
  public boolean sendsStatementsTogether() {
    return sendsStatementsTogether;
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
