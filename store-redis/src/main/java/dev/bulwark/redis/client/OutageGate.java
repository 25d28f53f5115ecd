package dev.bulwark.redis.client;

import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Turns Redis failures into {@link StoreException}s, and a lost connection into an outage of core's
 * {@link dev.bulwark.core.store.OutageGate}: calls fail at once until Redis answers again.
 */
public final class OutageGate {

  private final String where;
  private final dev.bulwark.core.store.OutageGate gate;

  /**
   * @param dropConnections drops pooled connections, which are all dead once Redis went away
   */
  public OutageGate(String where, Duration reconnectInterval, Runnable dropConnections) {
    this.where = where;
    this.gate =
        new dev.bulwark.core.store.OutageGate(
            where, reconnectInterval, OutageGate::unreachable, dropConnections);
  }

  public <T> T call(Supplier<T> operation) {
    try {
      return gate.call(operation);
    } catch (JedisException e) {
      // an error reply or an exhausted pool: Redis answers, so this is no outage
      throw new StoreException(where + ": " + e.getMessage(), e);
    }
  }

  /** Whether calls currently fail fast. */
  public boolean isDown() {
    return gate.isDown();
  }

  private static String unreachable(RuntimeException failure) {
    return failure instanceof JedisConnectionException
            || failure instanceof JedisClusterOperationException
        ? String.valueOf(failure.getMessage())
        : null;
  }
}
