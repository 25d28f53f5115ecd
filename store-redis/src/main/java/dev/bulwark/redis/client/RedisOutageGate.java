package dev.bulwark.redis.client;

import dev.bulwark.core.outage.OutageGate;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Turns Redis failures into {@link StoreException}s, and a lost connection into an outage of core's
 * {@link OutageGate}: calls fail at once until Redis answers again.
 */
public final class RedisOutageGate {

  private final String where;
  private final OutageGate gate;

  /**
   * @param dropConnections drops pooled connections, which are all dead once Redis went away
   */
  public RedisOutageGate(String where, Duration reconnectInterval, Runnable dropConnections) {
    this.where = where;
    this.gate =
        new OutageGate(where, reconnectInterval, RedisOutageGate::unreachable, dropConnections);
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
