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
  /**
   * The statement's start in UTC ({@code UTC_TIMESTAMP(6)}, no conversion from the server's zone)
   * plus the time since then ({@code SYSDATE(6)}, the time of the call, less {@code NOW(6)}, the
   * statement's start: both in the session's zone, so their difference is the time elapsed), as
   * microseconds after 1970 by {@code TIMESTAMPDIFF} on DATETIME. {@code
   * UNIX_TIMESTAMP(SYSDATE(6))} read the server's local time back through its zone, an hour wrong
   * where a DST change makes the local time ambiguous, and is NULL after 2038-01-19 on MariaDB 11.4
   * and older. Only a statement that runs across a DST change itself is off, by the change, for
   * that statement.
   */
  MARIADB(
      "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))"
          + " + TIMESTAMPDIFF(MICROSECOND, NOW(6), SYSDATE(6)))",
      false),
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
   * The database's time as read, or a failure when it answered none: a NULL clock (a database whose
   * time functions give out) must not read as 1970, when no lease would ever end.
   */
  public static long clock(Object answer) {
    if (answer == null) {
      throw new IllegalStateException(
          "Bulwark: the database answered no time (NULL) for its clock; the store cannot decide"
              + " on leases or rates without one");
    }
    return ((Number) answer).longValue();
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
