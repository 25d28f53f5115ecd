package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

  private static RedisSettings settings(String keyPrefix) {
    Map<String, String> config =
        Map.of(
            "bulwark.redis.sentinel.master",
            LocalSentinel.MASTER_NAME,
            "bulwark.redis.sentinel.nodes",
            sentinel.sentinel().toString(),
            "bulwark.redis.key-prefix",
            keyPrefix);
    RedisSettings settings = RedisSettings.from(key -> Optional.ofNullable(config.get(key)));
    assertThat(settings.topology()).isEqualTo(RedisSettings.Topology.SENTINEL);
    return settings;
  }

  @Test
  void holdsPermitsOnTheMasterAndWakesTheWaiterAcrossInstances() throws Exception {
    RedisSettings settings = settings("sentinel-test:");
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

  @Test
  void batchesGoPipelinedToTheMasterSeveralInFlight() throws Exception {
    RedisSettings settings = settings("sentinel-pipelined:");
    PermitSpec one = new PermitSpec("pool", 1, 10_000);

    try (RecordingStore store = RecordingStore.open(settings);
        RedisClient master = sentinel.master()) {
      assertThat(store.store().batchesInFlight()).isGreaterThan(1);
      // both written before either reply is read, applied on the master in the order written
      CompletableFuture<List<Grant>> first =
          store
              .store()
              .permits()
              .applyAsync(one, List.of(Operation.acquire(1, true)))
              .toCompletableFuture();
      CompletableFuture<List<Grant>> second =
          store
              .store()
              .permits()
              .applyAsync(one, List.of(Operation.acquire(2, true)))
              .toCompletableFuture();

      assertThat(first.get(10, TimeUnit.SECONDS)).containsExactly(Grant.GRANTED);
      assertThat(second.get(10, TimeUnit.SECONDS)).containsExactly(Grant.QUEUED);
      assertThat(master.zrange("sentinel-pipelined:{b:pool}:holders", 0, -1))
          .containsExactly(store.member(1));
    }
  }
}
