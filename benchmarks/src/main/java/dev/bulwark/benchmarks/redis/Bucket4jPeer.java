package dev.bulwark.benchmarks.redis;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.serialization.Mapper;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import java.time.Duration;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/**
 * The rate-limit peer: one Bucket4j bucket shared by every caller, kept in Redis through Bucket4j's
 * compare-and-swap proxy manager on a Jedis 8 {@link RedisClient}.
 */
public final class Bucket4jPeer implements AutoCloseable {

  static final String KEY = "bench:bucket4j:rate";

  private final RedisClient client;
  private final Bucket bucket;

  /** A bucket that never runs dry: a billion tokens a second. */
  public Bucket4jPeer() {
    this(KEY, 1_000_000_000L);
  }

  /** A bucket of {@code perSecond} tokens, refilled greedily at {@code perSecond} a second. */
  public Bucket4jPeer(String key, long perSecond) {
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(JedisFloor.POOL_SIZE);
    pool.setMaxIdle(JedisFloor.POOL_SIZE);
    pool.setMinIdle(JedisFloor.POOL_SIZE);
    client =
        RedisClient.builder()
            .hostAndPort(RedisTarget.host(), RedisTarget.port())
            .poolConfig(pool)
            .build();
    client.del(key);
    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(
                Bandwidth.builder()
                    .capacity(perSecond)
                    .refillGreedy(perSecond, Duration.ofSeconds(1))
                    .build())
            .build();
    bucket =
        Bucket4jJedis.casBasedBuilder(client)
            .keyMapper(Mapper.STRING)
            .build()
            .builder()
            .build(key, () -> configuration);
  }

  public boolean tryConsume() {
    return bucket.tryConsume(1);
  }

  @Override
  public void close() {
    client.close();
  }
}
