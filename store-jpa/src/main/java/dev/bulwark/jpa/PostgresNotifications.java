package dev.bulwark.jpa;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * PostgreSQL's LISTEN on this JVM's channel, on a connection of its own: a hand-over committed in
 * another JVM arrives as a notification about one round trip later, so the waiter does not wait for
 * the check interval. When the connection breaks, the check interval alone applies until it is
 * opened again. The connection comes from the store's own pool, or from a container's data source,
 * where it is held for as long as the store is open; a data source whose connections are not
 * PostgreSQL's (no {@link PGConnection} behind the pool's wrapper) leaves the check interval alone
 * for good.
 */
final class PostgresNotifications implements WakeUpSignal {

  private static final BulwarkLog LOG = BulwarkLog.of(PostgresNotifications.class);

  private static final long SLICE_MILLIS = 200;

  /**
   * How often the LISTEN connection is asked to answer: a connection that died without a word (a
   * firewall or a NAT dropped it) delivers nothing and reports nothing, and would leave the check
   * interval alone for good.
   */
  private static final long VERIFY_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** How long the LISTEN connection may take to answer before it counts as dead. */
  private static final int VERIFY_TIMEOUT_SECONDS = 2;

  private final DataSource dataSource;
  private volatile boolean closed;
  private final String channel;
  private Connection connection;
  private boolean unsupported;
  private volatile long verifiedAt = System.nanoTime();

  /** Listens from now on, so that no hand-over after the store opened goes unannounced. */
  PostgresNotifications(DataSource dataSource, String channel) {
    this.dataSource = dataSource;
    this.channel = channel;
    listen();
  }

  @Override
  public void await(Duration timeout) throws InterruptedException {
    Connection listening = listen();
    if (listening == null) {
      Thread.sleep(timeout.toMillis());
      return;
    }
    try {
      PGConnection pg = listening.unwrap(PGConnection.class);
      long deadline = System.nanoTime() + timeout.toNanos();
      // in slices, so that closing the store never waits for a whole check interval
      for (long left = timeout.toMillis(); left > 0 && !closed; ) {
        if (System.nanoTime() - verifiedAt >= VERIFY_EVERY_NANOS) {
          if (!listening.isValid(VERIFY_TIMEOUT_SECONDS)) {
            LOG.debug("Bulwark: the LISTEN connection does not answer; reopening it");
            dropConnection();
            // what was announced on it meanwhile is lost: the caller looks for hand-overs now
            return;
          }
          verifiedAt = System.nanoTime();
        }
        PGNotification[] received = pg.getNotifications((int) Math.min(left, SLICE_MILLIS));
        if (received != null && received.length > 0) {
          return;
        }
        left = (deadline - System.nanoTime()) / 1_000_000;
      }
    } catch (SQLException e) {
      LOG.debug("Bulwark: the LISTEN connection broke; reopening it", e);
      dropConnection();
      Thread.sleep(timeout.toMillis());
    }
  }

  /**
   * Whether this class can use PostgreSQL's driver: in a container the driver may sit in a class
   * loader the store's classes do not see.
   */
  static boolean driverVisible() {
    try {
      Class.forName(
          "org.postgresql.PGConnection", false, PostgresNotifications.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Opens the LISTEN connection (channel names are this store's own ids, never user data). */
  synchronized Connection listen() {
    if (connection != null || unsupported || closed) {
      return connection;
    }
    Connection opened = null;
    try {
      opened = dataSource.getConnection();
      if (!opened.isWrapperFor(PGConnection.class)) {
        unsupported = true;
        LOG.info(LogMessage.JPA_NO_LISTEN);
        close(opened);
        return null;
      }
      opened.setAutoCommit(true);
      try (Statement statement = opened.createStatement()) {
        statement.execute("LISTEN " + channel);
      }
      connection = opened;
      verifiedAt = System.nanoTime();
      return opened;
    } catch (SQLException e) {
      LOG.debug("Bulwark: cannot LISTEN for hand-overs now", e);
      // a connection the LISTEN failed on goes back (or, broken, away): a pool would lose it
      close(opened);
      return null;
    }
  }

  private synchronized void dropConnection() {
    close(connection);
    connection = null;
  }

  private static void close(Connection connection) {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        LOG.debug("Bulwark: closing the LISTEN connection failed", e);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    dropConnection();
  }
}
