package dev.bulwark.redis.client;

import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Turns Redis failures into {@link StoreException}s and, while Redis is unreachable, fails calls at
 * once instead of letting each wait out a connect timeout: one call per reconnect interval tries
 * Redis again, and the first that succeeds ends the outage. Outages are logged once at their start
 * and once at their end.
 */
public final class OutageGate {

  private static final Logger LOG = Logger.getLogger(OutageGate.class.getName());
  private static final long UP = Long.MIN_VALUE;

  private final String where;
  private final long retryNanos;

  /** {@link #UP}, or the nanoTime from which the next call may try Redis again. */
  private final AtomicLong nextTry = new AtomicLong(UP);

  private volatile long downSince;
  private volatile String lastError = "";

  private final Runnable dropConnections;

  /**
   * @param dropConnections drops pooled connections, which are all dead once Redis went away
   */
  public OutageGate(String where, Duration reconnectInterval, Runnable dropConnections) {
    this.where = where;
    this.retryNanos = reconnectInterval.toNanos();
    this.dropConnections = dropConnections;
  }

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
    } catch (JedisConnectionException | JedisClusterOperationException e) {
      wentDown(e);
      throw new StoreException(where + ": " + e.getMessage(), e);
    } catch (JedisException e) {
      // an error reply or an exhausted pool: Redis answers, so this is no outage
      throw new StoreException(where + ": " + e.getMessage(), e);
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

  private void wentDown(JedisException e) {
    lastError = String.valueOf(e.getMessage());
    dropConnections.run();
    long now = System.nanoTime();
    if (nextTry.getAndSet(now + retryNanos) == UP) {
      downSince = now;
      LOG.log(
          Level.WARNING,
          "Bulwark: "
              + where
              + " is unreachable ("
              + lastError
              + "); the failure policy applies until it answers again",
          e);
    }
  }

  private void cameBack() {
    if (nextTry.getAndSet(UP) != UP) {
      long seconds = Duration.ofNanos(System.nanoTime() - downSince).toSeconds();
      LOG.info(() -> "Bulwark: " + where + " answers again after about " + seconds + " s");
    }
  }
}
