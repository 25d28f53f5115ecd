package dev.bulwark.benchmarks.redis;

import dev.bulwark.benchmarks.GuardedContainer;
import dev.bulwark.benchmarks.Workloads;
import java.util.Map;
import redis.clients.jedis.Jedis;

/** {@link dev.bulwark.benchmarks.Interleaved}'s workloads on Redis: the floors and the guards. */
public final class RedisWorkloads {

  private RedisWorkloads() {}

  /** The Jedis floors: {@code floorOneRoundTrip…} and {@code floorTwoRoundTrips…}. */
  public static Workloads floors() {
    JedisFloor floor = new JedisFloor();
    return new Workloads() {
      @Override
      public Call call(String name) {
        boolean two = name.startsWith("floorTwoRoundTrips");
        if (!two && !name.startsWith("floorOneRoundTrip")) {
          throw new IllegalArgumentException("no Redis floor " + name);
        }
        return random -> {
          String key = "bench:floor-" + Thread.currentThread().getId();
          if (two) {
            floor.twoRoundTrips(key);
          } else {
            floor.oneRoundTrip(key);
          }
        };
      }

      @Override
      public void close() {
        floor.close();
      }
    };
  }

  /**
   * The guarded cases through the interceptors, with the store's keys under a prefix of {@code
   * label}'s own, emptied first, so that two builds never meet in Redis.
   */
  public static Workloads guarded(String label) {
    String prefix = RedisThroughInterceptors.PREFIX + label + ":";
    try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
      KeySweep.delete(redis, prefix + "*");
    }
    return Workloads.guarded(
        GuardedContainer.boot(
            Map.of(
                "bulwark.store",
                "redis",
                "bulwark.redis.url",
                RedisTarget.URL,
                "bulwark.redis.key-prefix",
                prefix)));
  }
}
