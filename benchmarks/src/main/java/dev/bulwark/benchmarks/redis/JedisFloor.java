package dev.bulwark.benchmarks.redis;

import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/**
 * The floor: what one round trip costs through a pooled Jedis 8 client, measured as EVALSHA of a
 * script that only returns 1. Every library here runs a script per round trip, so this is the least
 * any of them can pay; two calls back to back are the least an acquire plus a release can pay.
 */
public final class JedisFloor implements AutoCloseable {

  /** Takes its key like the libraries' scripts do, so the call has the same shape. */
  static final String SCRIPT = "return 1";

  /** At least as many connections as benchmark threads, so nobody waits for the pool. */
  static final int POOL_SIZE = 16;

  private final RedisClient client;
  private final String sha;

  public JedisFloor() {
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(POOL_SIZE);
    pool.setMaxIdle(POOL_SIZE);
    pool.setMinIdle(POOL_SIZE);
    client =
        RedisClient.builder()
            .hostAndPort(RedisTarget.host(), RedisTarget.port())
            .poolConfig(pool)
            .build();
    sha = client.scriptLoad(SCRIPT);
  }

  /** One round trip. */
  public Object oneRoundTrip(String key) {
    return client.evalsha(sha, 1, key);
  }

  /** Two round trips, one after the other: the floor of acquire plus release. */
  public Object twoRoundTrips(String key) {
    client.evalsha(sha, 1, key);
    return client.evalsha(sha, 1, key);
  }

  @Override
  public void close() {
    client.close();
  }
}
