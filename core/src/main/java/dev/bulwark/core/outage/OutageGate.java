package dev.bulwark.core.outage;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A shared store's outage, as every store meets it: while the store is unreachable, calls fail at
 * once instead of each waiting out a connect timeout; one call per reconnect interval tries the
 * store again, and the first that gets through ends the outage. Each outage is logged once when it
 * starts and once when it ends. The store tells an outage from other failures ({@link Diagnosis}).
 */
public final class OutageGate {

  /** How a store tells that a failure means it cannot be reached. */
  @FunctionalInterface
  public interface Diagnosis {
    /**
     * Why the store is unreachable, when {@code failure} says so; null when the store answered (an
     * error reply, a conflict), which is no outage.
     */
    String unreachable(RuntimeException failure);
  }

  private static final BulwarkLog LOG = BulwarkLog.of(OutageGate.class);
  private static final long UP = Long.MIN_VALUE;

  private final String where;
  private final long retryNanos;
  private final Diagnosis diagnosis;
  private final Runnable onOutage;

  /** {@link #UP}, or the nanoTime from which the next call may try the store again. */
  private final AtomicLong nextTry = new AtomicLong(UP);

  private volatile long downSince;
  private volatile String lastError = "";

  /**
   * @param onOutage runs at every failure that means an outage, e.g. to drop pooled connections,
   *     which are all dead once the store went away
   */
  public OutageGate(
      String where, Duration reconnectInterval, Diagnosis diagnosis, Runnable onOutage) {
    this.where = where;
    this.retryNanos = reconnectInterval.toNanos();
    this.diagnosis = diagnosis;
    this.onOutage = onOutage;
  }

  /**
   * Runs {@code operation} unless the store is down and it is not yet time to try again; a failure
   * that means an outage leaves as a {@link StoreException}, any other as it came.
   */
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
      String why = diagnosis.unreachable(e);
      if (why == null) {
        throw e;
      }
      wentDown(why);
      throw new StoreException(where + " is unreachable: " + why, e);
    }
    if (next != UP) {
      cameBack();
    }
    return result;
  }

  /** Whether calls currently fail fast. */
  public boolean isDown() {
    return nextTry.get() != UP;
  }

  private void wentDown(String why) {
    lastError = why;
    onOutage.run();
    long now = System.nanoTime();
    if (nextTry.getAndSet(now + retryNanos) == UP) {
      downSince = now;
      LOG.warn(LogMessage.STORE_UNREACHABLE, where, why);
    }
  }

  private void cameBack() {
    if (nextTry.getAndSet(UP) != UP) {
      long seconds = Duration.ofNanos(System.nanoTime() - downSince).toSeconds();
      LOG.info(LogMessage.STORE_ANSWERS_AGAIN, where, seconds);
    }
  }
}
