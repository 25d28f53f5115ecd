package dev.bulwark.jpa.setup;

import dev.bulwark.jpa.tx.Failure;
import dev.bulwark.spi.StoreException;
import java.sql.SQLException;

/**
 * A database that is there but passing its file from one process to another: an H2 file shared with
 * {@code AUTO_SERVER}, whose serving JVM died while this one opened it. This JVM's first connection
 * may find the lock file still fresh, or a connection to the dying server may break under the
 * start's first statements; a moment later this JVM serves the file itself. Such a start is
 * retried, and reported as the store being unavailable, never as a setting at fault.
 */
final class H2FileHandOver {

  /** H2: the file is locked by a process that touched its lock file lately. */
  private static final int H2_IN_USE = 90020;

  private H2FileHandOver() {}

  /**
   * Whether {@code failure} is a hand-over rather than a setting at fault.
   *
   * @param connected whether a connection to the database had been opened before: a connection
   *     failure after that is a passing one, while the first connection failing points at the URL
   */
  static boolean isPassing(Throwable failure, boolean connected) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        if (Failure.h2ConnectionGone(sql)) {
          return true;
        }
        if (sql.getErrorCode() == H2_IN_USE
            && String.valueOf(sql.getMessage()).contains("recently modified")) {
          return true;
        }
        if (connected && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
          return true;
        }
      }
      if (connected && t.getClass().getSimpleName().equals("JDBCConnectionException")) {
        return true;
      }
    }
    return false;
  }

  /** The store unavailable for now: what a start reports once its retries ran out. */
  static StoreException unavailable(JpaSettings settings, Throwable failure) {
    return new StoreException(
        "Bulwark JPA store: "
            + settings.describe()
            + " is unavailable for now: its serving process went away while this one opened it,"
            + " and it was not served again within bulwark.jpa.connect-timeout="
            + settings.connectTimeout().toMillis()
            + "ms ("
            + ConnectFailures.sanitized(failure.getMessage(), settings)
            + ")",
        failure);
  }
}
