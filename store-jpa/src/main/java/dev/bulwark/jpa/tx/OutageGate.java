package dev.bulwark.jpa.tx;

import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * While the database is unreachable, fails calls at once instead of letting each wait for a
 * connection: one call per reconnect interval tries the database again, and the first that gets
 * through ends the outage. Each outage is logged once when it starts and once when it ends.
 */
public final class OutageGate {

  private static final Logger LOG = Logger.getLogger(OutageGate.class.getName());
  private static final long UP = Long.MIN_VALUE;

  private final String where;
  private final long retryNanos;

  /** {@link #UP}, or the nanoTime from which the next call may try the database again. */
  private final AtomicLong nextTry = new AtomicLong(UP);

  private volatile long downSince;
  private volatile String lastError = "";

  public OutageGate(String where, Duration reconnectInterval) {
    this.where = where;
    this.retryNanos = reconnectInterval.toNanos();
  }

  /** Runs {@code operation} unless the database is down and it is not yet time to try again. */
  public <T> T call(Supplier<T> operation) {
    long next = nextTry.get();
    if (next != UP) {
      long now = System.nanoTime();
      if (now - next < 0 || !nextTry.compareAndSet(next, now + retryNanos)) {
        throw new StoreException(where + " is unreachable: " + lastError);
      }
    }
    T result;
    try {
      result = operation.get();
    } catch (RuntimeException e) {
      if (Failure.of(e) == Failure.UNREACHABLE) {
        wentDown(e);
        throw new StoreException(where + " is unreachable: " + lastError, e);
      }
      throw e;
    }
    if (next != UP) {
      cameBack();
    }
    return result;
  }

  private void wentDown(RuntimeException e) {
    lastError = rootMessage(e);
    long now = System.nanoTime();
    if (nextTry.getAndSet(now + retryNanos) == UP) {
      downSince = now;
      LOG.log(
          Level.WARNING,
          "Bulwark: "
              + where
              + " is unreachable ("
              + lastError
              + "); the failure policy applies until it answers again");
    }
  }

  private void cameBack() {
    if (nextTry.getAndSet(UP) != UP) {
      long seconds = Duration.ofNanos(System.nanoTime() - downSince).toSeconds();
      LOG.info(() -> "Bulwark: " + where + " answers again after about " + seconds + " s");
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + ": " + root.getMessage();
  }
}
