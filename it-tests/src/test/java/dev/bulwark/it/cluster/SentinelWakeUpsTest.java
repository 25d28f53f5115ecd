package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.Waiting;
import dev.bulwark.it.cluster.history.Millis;
import dev.bulwark.it.support.LocalSentinelGroup;
import dev.bulwark.it.support.RedisServerProcess;
import dev.bulwark.redis.RedisStore;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Behind Sentinel the wake-up subscription follows the master. After a coordinated failover the old
 * master runs on, still a master, until a Sentinel next looks at it (up to 10 s) and turns it into
 * a replica: a subscription left there hears nothing the new master publishes. Each store moves its
 * subscription to the new master within a few reconnect intervals, and a hand-over then wakes the
 * waiter of the other store.
 */
class SentinelWakeUpsTest {

  private static final String PREFIX = "bulwark-it:sentinel-wake-ups:";

  /** Five reconnect intervals; the Sentinels convert the old master only after up to 10 s. */
  private static final Duration FOLLOW_TIMEOUT = Duration.ofMillis(2500);

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void theSubscriptionMovesToTheNewMasterAndAHandOverWakesTheWaiter() throws Exception {
    try (LocalSentinelGroup group = LocalSentinelGroup.start(Duration.ofMillis(1000))) {
      Map<String, String> config =
          Map.of(
              "bulwark.redis.sentinel.master",
              LocalSentinelGroup.MASTER_NAME,
              "bulwark.redis.sentinel.nodes",
              group.sentinelNodes(),
              "bulwark.redis.key-prefix",
              PREFIX,
              "bulwark.redis.reconnect-interval",
              "500ms");
      RedisSettings settings = RedisSettings.from(key -> Optional.ofNullable(config.get(key)));
      BlockingQueue<Long> wakes = new LinkedBlockingQueue<>();
      try (RedisStore holder = RedisStore.open(settings, (request, token) -> {});
          RedisStore waiter = RedisStore.open(settings, (request, token) -> wakes.add(request))) {
        String channels = PREFIX + "wake:*";
        assertThat(subscribers(group.master(), channels)).isEqualTo(2);

        long promoted = group.failOverCoordinated(Duration.ofSeconds(30));
        Waiting.until(
            () -> subscribers(group.replica(), channels) == 2,
            FOLLOW_TIMEOUT,
            "both stores subscribed on the promoted replica");
        long followed = System.nanoTime();
        assertThat(subscribers(group.master(), channels)).as("left on the old master").isZero();

        PermitSpec one = new PermitSpec("pool", 1, 10_000);
        assertThat(holder.permits().acquire(one, 1, true)).isEqualTo(Grant.GRANTED);
        assertThat(waiter.permits().acquire(one, 2, true)).isEqualTo(Grant.QUEUED);
        long released = System.nanoTime();
        holder.permits().release(one, 1);
        Long woken = wakes.poll(5, TimeUnit.SECONDS);
        long heard = System.nanoTime();
        System.out.printf(
            "[sentinel-wake-ups] subscriptions on the new master %.0f ms after its promotion;"
                + " hand-over heard %.1f ms after the release%n",
            Millis.of(followed - promoted), Millis.of(heard - released));
        assertThat(woken).as("the waiter's wake-up").isEqualTo(2L);
      }
    }
  }

  private static long subscribers(RedisServerProcess node, String pattern) {
    try (Jedis jedis = node.connect()) {
      return jedis.pubsubChannels(pattern).size();
    } catch (JedisException e) {
      return -1;
    }
  }
}
