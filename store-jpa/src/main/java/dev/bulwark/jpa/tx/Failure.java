package dev.bulwark.jpa.tx;

import jakarta.persistence.LockTimeoutException;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PessimisticLockException;
import java.net.ConnectException;
import java.net.SocketException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/** What a failed transaction means for the store, read from the exception and its causes. */
public enum Failure {
  /** A deadlock, serialization failure or lock timeout: running it again may succeed. */
  CONFLICT,
  /** The database cannot be reached. */
  UNREACHABLE,
  /**
   * Every connection of the store's pool was in use for the whole connection timeout: a burst, not
   * an outage. That call fails; the others go on, and the store is not shut for a reconnect
   * interval.
   */
  POOL_EXHAUSTED,
  /** Anything else: a fault (a missing table, a constraint), not cured by running it again. */
  FAULT;

  /**
   * SQLStates of conflicts: serialization failure, deadlock (PostgreSQL, H2), lock timeouts, H2's
   * concurrent update of a row (90131), and a unique violation, which only two JVMs creating one
   * limit's row at once can cause.
   */
  private static boolean conflictState(String state) {
    return "40001".equals(state)
        || "90131".equals(state)
        || "23505".equals(state)
        || "40P01".equals(state)
        || "HYT00".equals(state)
        || "55P03".equals(state);
  }

  /**
   * MariaDB's deadlock, lock-wait timeout and duplicate-key error codes, and 1020 (record changed
   * since last read), which MariaDB 11.6 and later raise with {@code innodb_snapshot_isolation=ON}
   * where an older server would have waited and gone on.
   */
  private static boolean conflictCode(int code) {
    return code == 1213 || code == 1205 || code == 1062 || code == 1020;
  }

  /**
   * H2's codes for a connection whose database went away: the connection broke (90067), the
   * database was closed (90098), or it is shutting down (90121). An embedded or {@code AUTO_SERVER}
   * database closes under its connections when its serving process dies or the JVM stops; they
   * carry no SQLState of class 08, so they are named here.
   */
  private static final Set<Integer> H2_CONNECTION_GONE = Set.of(90067, 90098, 90121);

  /** Whether {@code sql} is H2 saying that the connection's database went away. */
  public static boolean h2ConnectionGone(SQLException sql) {
    return H2_CONNECTION_GONE.contains(sql.getErrorCode())
        && String.valueOf(sql.getSQLState()).equals(String.valueOf(sql.getErrorCode()));
  }

  public static Failure of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (poolExhausted(t)) {
        return POOL_EXHAUSTED;
      }
      if (t instanceof SQLTransientConnectionException
          || t instanceof SQLRecoverableException
          || t instanceof ConnectException
          || t instanceof SocketException) {
        return UNREACHABLE;
      }
      if (t instanceof SQLException sql) {
        String state = sql.getSQLState();
        if (state != null && state.startsWith("08") || h2ConnectionGone(sql)) {
          return UNREACHABLE;
        }
        if (conflictState(state) || conflictCode(sql.getErrorCode())) {
          return CONFLICT;
        }
      }
      if (t instanceof PessimisticLockException
          || t instanceof LockTimeoutException
          || t instanceof OptimisticLockException) {
        return CONFLICT;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return FAULT;
  }

  /**
   * HikariCP's timeout waiting for a connection while every connection of the pool was in use: it
   * carries the last failure to connect as its cause when there was one (then the database is
   * unreachable), none when the connections were simply busy.
   */
  private static boolean poolExhausted(Throwable t) {
    if (!(t instanceof SQLTransientConnectionException) || t.getCause() != null) {
      return false;
    }
    String message = String.valueOf(t.getMessage());
    // a pool with no connection in use (a database that does not answer a connect at all) is not
    // busy: HikariCP reports its counts as "(total=…, active=…, idle=…, waiting=…)"
    return message.contains("Connection is not available") && !message.contains("active=0,");
  }

  /**
   * Why the database cannot be reached, when {@code failure} says so (its root cause); null for any
   * other failure. The diagnosis of the store's outage gate.
   */
  public static String unreachable(RuntimeException failure) {
    if (of(failure) != UNREACHABLE) {
      return null;
    }
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + ": " + root.getMessage();
  }
}
