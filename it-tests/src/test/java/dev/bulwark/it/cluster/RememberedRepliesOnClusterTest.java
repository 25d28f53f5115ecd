package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.it.support.RedisClusterExtension;
import dev.bulwark.redis.RedisStore;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * On a Redis Cluster every rate reservation is remembered, so that one Jedis re-sends takes no
 * second slot. What is kept is bounded per JVM, not per thread: after many threads reserved, and
 * one more call once they all had their replies, the JVM has a marker and that last reply left.
 */
class RememberedRepliesOnClusterTest {

  private static final String PREFIX = "bulwark-it:remembered:";
  private static final int THREADS = 24;
  private static final int CALLS_PER_THREAD = 20;

  @RegisterExtension static final RedisClusterExtension CLUSTER = new RedisClusterExtension();

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void manyThreadsLeaveOneJvmsWorthOfReplies() throws Exception {
    Map<String, String> config =
        Map.of(
            "bulwark.redis.cluster-nodes",
            CLUSTER.cluster().nodeList(),
            "bulwark.redis.key-prefix",
            PREFIX);
    RedisSettings settings = RedisSettings.from(key -> Optional.ofNullable(config.get(key)));
    RateSpec spec = new RateSpec("partner-api", RateLimitType.SMOOTH, 1_000_000, 1_000_000_000L);
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    String replies = PREFIX + "{r:" + spec.name() + "}:replies";
    try (RedisStore store = RedisStore.open(settings, (request, token) -> {});
        Jedis redis = CLUSTER.cluster().primaryOf(JedisClusterCRC16.getSlot(replies)).connect()) {
      List<Future<?>> calls = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        calls.add(
            threads.submit(
                () -> {
                  for (int c = 0; c < CALLS_PER_THREAD; c++) {
                    assertThat(store.rates().reserve(spec, 0).granted()).isTrue();
                  }
                }));
      }
      for (Future<?> call : calls) {
        call.get(60, TimeUnit.SECONDS);
      }
      assertThat(store.rates().reserve(spec, 0).granted()).isTrue();

      assertThat(redis.hkeys(replies))
          .as("what %d threads x %d calls left", THREADS, CALLS_PER_THREAD)
          .containsExactlyInAnyOrder(
              store.instance(), store.instance() + ":" + (THREADS * CALLS_PER_THREAD + 1));
    } finally {
      threads.shutdownNow();
    }
  }
}
