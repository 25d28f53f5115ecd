package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.LockMode;
import dev.bulwark.RateLimitType;
import dev.bulwark.core.sharedstore.KeyBytes;
import dev.bulwark.it.support.RedisClusterExtension;
import dev.bulwark.it.support.RedisServerProcess;
import dev.bulwark.redis.RedisStore;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.Outcome;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.StoreException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Batches on a Redis Cluster: a lock batch whose keys lie in many slots (on every primary) is split
 * by slot, sent pipelined, and answered in the batch's own order; a rate batch is one remembered
 * call of its JVM.
 */
class BatchesOnClusterTest {

  private static final String PREFIX = "bulwark-it:batches:";
  private static final int KEYS = 12;

  @RegisterExtension static final RedisClusterExtension CLUSTER = new RedisClusterExtension();

  private static RedisSettings settings() {
    return settings("2s");
  }

  private static RedisSettings settings(String readTimeout) {
    Map<String, String> config =
        Map.of(
            "bulwark.redis.cluster-nodes",
            CLUSTER.cluster().nodeList(),
            "bulwark.redis.key-prefix",
            PREFIX,
            "bulwark.redis.read-timeout",
            readTimeout);
    return RedisSettings.from(key -> Optional.ofNullable(config.get(key)));
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aLockBatchAcrossSlotsAnswersInItsOrder() throws NoSuchAlgorithmException {
    LockSpec accounts = new LockSpec("accounts", 30_000);
    List<long[]> heard = new CopyOnWriteArrayList<>();
    try (RedisStore store =
        RedisStore.open(settings(), (request, token) -> heard.add(new long[] {request, token}))) {
      // per key: a writer (request k), a writer queued behind it (100 + k), a reader that may not
      // wait (200 + k); then every first writer releases, which hands each key to its second
      List<Operation> batch = new ArrayList<>();
      for (int k = 1; k <= KEYS; k++) {
        batch.add(Operation.acquire(key(k), LockMode.WRITE, k, true));
      }
      for (int k = 1; k <= KEYS; k++) {
        batch.add(Operation.acquire(key(k), LockMode.WRITE, 100 + k, true));
        batch.add(Operation.acquire(key(k), LockMode.READ, 200 + k, false));
      }
      for (int k = KEYS; k >= 1; k--) {
        batch.add(Operation.release(key(k), k));
        batch.add(Operation.poll(key(k), 100 + k));
      }
      assertThat(slotsOf(batch)).as("slots the batch touches").hasSizeGreaterThan(KEYS / 2);

      List<Grant> answers = store.locks().apply(accounts, batch);

      assertThat(answers).hasSize(batch.size());
      for (int k = 1; k <= KEYS; k++) {
        Grant first = answers.get(k - 1);
        assertThat(first.isGranted()).as("first writer of %s", key(k)).isTrue();
        assertThat(answers.get(KEYS + 2 * (k - 1)).outcome())
            .as("second writer of %s", key(k))
            .isEqualTo(Outcome.QUEUED);
        assertThat(answers.get(KEYS + 2 * (k - 1) + 1).outcome())
            .as("reader of %s", key(k))
            .isEqualTo(Outcome.REJECTED);
        int releasedAt = 3 * KEYS + 2 * (KEYS - k);
        assertThat(answers.get(releasedAt)).as("release of %s", key(k)).isEqualTo(Grant.GRANTED);
        Grant handedOver = answers.get(releasedAt + 1);
        assertThat(handedOver.isGranted()).as("poll of the second writer of %s", key(k)).isTrue();
        assertThat(handedOver.fencingToken()).isGreaterThan(first.fencingToken());
      }
      // each told from the reply, and again by its notice (which may have come by now)
      assertThat(heard.stream().map(h -> h[0]).distinct().toList())
          .as("hand-overs told")
          .containsExactlyInAnyOrderElementsOf(
              LongStream.rangeClosed(101, 100 + KEYS).boxed().toList());
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aLockBatchThatFailsOnOnePrimaryGivesUpWhatTheOthersGranted() throws Exception {
    LockSpec orders = new LockSpec("orders", 30_000);
    // two keys whose slots lie on different primaries
    String onFirst = "order-0";
    RedisServerProcess first = CLUSTER.cluster().primaryOf(slotOf("orders", onFirst));
    int k = 1;
    while (CLUSTER.cluster().primaryOf(slotOf("orders", "order-" + k)).port() == first.port()) {
      k++;
    }
    String onSecond = "order-" + k;
    RedisServerProcess second = CLUSTER.cluster().primaryOf(slotOf("orders", onSecond));
    try (RedisStore store = RedisStore.open(settings("500ms"), (request, token) -> {});
        RedisStore other = RedisStore.open(settings(), (request, token) -> {});
        Jedis paused = second.connect()) {
      // the second primary does not answer scripts for longer than the read timeout
      paused.clientPause(3_000, ClientPauseMode.WRITE);
      try {
        assertThatThrownBy(
                () ->
                    store
                        .locks()
                        .apply(
                            orders,
                            List.of(
                                Operation.acquire(onFirst, LockMode.WRITE, 1, false),
                                Operation.acquire(onSecond, LockMode.WRITE, 2, false))))
            .isInstanceOf(StoreException.class);

        // the first primary granted its part; nobody heard that answer, so it was given up, and
        // the key is free now, not once the lease of 30 s ran out
        assertThat(
                other
                    .locks()
                    .apply(orders, List.of(Operation.acquire(onFirst, LockMode.WRITE, 3, false))))
            .singleElement()
            .satisfies(grant -> assertThat(grant.isGranted()).isTrue());
      } finally {
        paused.clientUnpause();
      }
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aRateBatchIsOneRememberedCall() {
    RateSpec spec = new RateSpec("partner-api", RateLimitType.FIXED, 3, 60_000_000_000L);
    String replies = PREFIX + "{r:" + spec.name() + "}:replies";
    try (RedisStore store = RedisStore.open(settings(), (request, token) -> {});
        Jedis redis = CLUSTER.cluster().primaryOf(JedisClusterCRC16.getSlot(replies)).connect()) {
      List<RateDecision> decisions = store.rates().reserveEach(spec, new long[5]);

      assertThat(decisions)
          .extracting(RateDecision::granted)
          .containsExactly(true, true, true, false, false);
      assertThat(redis.hkeys(replies))
          .as("one reply kept for the batch, and the JVM's marker")
          .containsExactlyInAnyOrder(store.instance(), store.instance() + ":1");
    }
  }

  private static String key(int k) {
    return "account-" + k;
  }

  /** The slot of a lock key of {@code name}. */
  private static int slotOf(String name, String key) throws NoSuchAlgorithmException {
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(KeyBytes.of(key));
    return JedisClusterCRC16.getSlot(
        "{l:" + name + ":" + HexFormat.of().formatHex(digest, 0, 16) + "}");
  }

  /** The slots of the batch's lock keys: hash tag {l:<name>:<128 bits of SHA-256 of the key>}. */
  private static Set<Integer> slotsOf(List<Operation> batch) throws NoSuchAlgorithmException {
    Set<Integer> slots = new HashSet<>();
    for (Operation operation : batch) {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(KeyBytes.of(operation.key()));
      String tag = "{l:accounts:" + HexFormat.of().formatHex(digest, 0, 16) + "}";
      slots.add(JedisClusterCRC16.getSlot(tag));
    }
    return slots;
  }
}
