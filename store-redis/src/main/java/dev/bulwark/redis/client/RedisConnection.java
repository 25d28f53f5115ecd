package dev.bulwark.redis.client;

import org.apache.commons.pool2.impl.GenericObjectPool;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.ConnectionProvider;

/**
 * The pooled client and its pools. After Redis restarts, every idle pooled connection is dead;
 * dropping them all at the first failure lets the next call reconnect instead of failing once per
 * stale connection.
 */
public final class RedisConnection implements AutoCloseable {

  private final UnifiedJedis client;
  private final ConnectionProvider provider;

  RedisConnection(UnifiedJedis client, ConnectionProvider provider) {
    this.client = client;
    this.provider = provider;
  }

  public UnifiedJedis client() {
    return client;
  }

  public void dropIdleConnections() {
    if (provider == null) {
      return;
    }
    for (Object pool : provider.getConnectionMap().values()) {
      if (pool instanceof GenericObjectPool<?> idle) {
        idle.clear();
      }
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
