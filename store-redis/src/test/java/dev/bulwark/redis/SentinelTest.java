package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** The Sentinel topology: the store finds the master through a Sentinel, and wake-ups work. */
class SentinelTest {

  private static LocalSentinel sentinel;

  @BeforeAll
  static void start() throws Exception {
    sentinel = LocalSentinel.start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (sentinel != null) {
      sentinel.close();
    }
  }

  @Test
  void holdsPermitsOnTheMasterAndWakesTheWaiterAcrossInstances() throws Exception {
    Map<String, String> config =
        Map.of(
            "bulwark.redis.sentinel.master",
            LocalSentinel.MASTER_NAME,
            "bulwark.redis.sentinel.nodes",
            sentinel.sentinel().toString(),
            "bulwark.redis.key-prefix",
            "sentinel-test:");
    RedisSettings settings = RedisSettings.from(key -> Optional.ofNullable(config.get(key)));
    assertThat(settings.topology()).isEqualTo(RedisSettings.Topology.SENTINEL);
    PermitSpec one = new PermitSpec("pool", 1, 10_000);

    try (RecordingStore first = RecordingStore.open(settings);
        RecordingStore second = RecordingStore.open(settings);
        RedisClient master = sentinel.master()) {
      assertThat(first.store().permits().acquire(one, 1, true)).isEqualTo(Grant.GRANTED);
      assertThat(second.store().permits().acquire(one, 2, true)).isEqualTo(Grant.QUEUED);
      assertThat(master.zrange("sentinel-test:{b:pool}:holders", 0, -1))
          .containsExactly(first.member(1));

      first.store().permits().release(one, 1);

      assertThat(second.wakesSoFar(master)).containsExactly(new Wake(2, 0));
      assertThat(first.wakesSoFar(master)).isEmpty();
      assertThat(master.zrange("sentinel-test:{b:pool}:holders", 0, -1))
          .containsExactly(second.member(2));
    }
  }
}
