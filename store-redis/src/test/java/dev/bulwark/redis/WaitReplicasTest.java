package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.LockMode;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.SafeEncoder;

/**
 * {@code bulwark.redis.wait-replicas}: a grant is returned only once that many replicas have it; a
 * grant they did not acknowledge in time fails the call and stays held until its lease runs out;
 * with the default (0) no {@code WAIT} is sent. Runs on a master and replica of its own.
 */
class WaitReplicasTest {

  private static final PermitSpec ONE = new PermitSpec("pool", 1, 10_000);
  private static final LockSpec LOCK = new LockSpec("accounts", 10_000);
  private static final Logger STORE_LOG = Logger.getLogger("dev.bulwark.redis");

  private static LocalReplicatedRedis redis;
  private static Level storeLogLevel;

  private final RedisKeys keys = new RedisKeys("wait-test:");
  private RedisClient master;
  private RedisClient replica;

  @BeforeAll
  static void start() throws Exception {
    redis = LocalReplicatedRedis.start();
    storeLogLevel = STORE_LOG.getLevel();
    STORE_LOG.setLevel(Level.SEVERE);
  }

  @AfterAll
  static void stop() throws Exception {
    STORE_LOG.setLevel(storeLogLevel);
    if (redis != null) {
      redis.close();
    }
  }

  @BeforeEach
  void connect() {
    master = redis.master();
    replica = redis.replica();
    master.flushAll();
  }

  @AfterEach
  void disconnect() {
    master.close();
    replica.close();
  }

  @Test
  void aGrantIsReturnedOnlyOnceTheReplicaHasIt() throws Exception {
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (RecordingStore store = open("1", "20s")) {
      redis.freezeReplica();
      Future<Grant> acquire;
      try {
        acquire = caller.submit(() -> store.store().permits().acquire(ONE, 1, true));
        // granted on the master at once, but not returned while the replica cannot have it
        assertThatThrownBy(() -> acquire.get(300, TimeUnit.MILLISECONDS))
            .isInstanceOf(TimeoutException.class);
        assertThat(master.zscore(holders(), store.member(1))).isNotNull();
      } finally {
        redis.thawReplica();
      }
      assertThat(acquire.get(10, TimeUnit.SECONDS)).isEqualTo(Grant.GRANTED);
      assertThat(replica.zscore(holders(), store.member(1))).isNotNull();

      Grant write = store.store().locks().acquire(LOCK, "42", LockMode.WRITE, 2, true);
      assertThat(write.isGranted()).isTrue();
      assertThat(replica.hget(lockState(), "writer")).isEqualTo(store.member(2));
    } finally {
      caller.shutdownNow();
    }
  }

  @Test
  void repliesThatGrantNothingDoNotWait() throws Exception {
    try (RecordingStore holder = open("1", "100ms");
        RecordingStore other = open("1", "100ms")) {
      assertThat(holder.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
      redis.freezeReplica();
      try {
        // any WAIT would fall short now and fail the call
        assertThat(other.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);
        assertThat(other.store().permits().acquire(ONE, 3, false)).isEqualTo(Grant.REJECTED);
        holder.store().permits().release(ONE, 1);
        assertThat(master.zscore(holders(), other.member(2))).as("handed over").isNotNull();
      } finally {
        redis.thawReplica();
      }
    }
  }

  @Test
  void withTheDefaultNoGrantWaitsForReplicas() throws Exception {
    try (RecordingStore store = open(null, null)) {
      assertThat(store.store().settings().waitReplicas()).isZero();
      redis.freezeReplica();
      try {
        assertThat(store.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
        assertThat(store.store().locks().acquire(LOCK, "42", LockMode.WRITE, 2, true).isGranted())
            .isTrue();
      } finally {
        redis.thawReplica();
      }
    }
  }

  @Test
  void aGrantTheReplicasDidNotAcknowledgeFailsAndStaysHeldUntilItsLeaseRunsOut() throws Exception {
    try (RecordingStore store = open("1", "100ms");
        RecordingStore plain = open(null, null)) {
      redis.freezeReplica();
      try {
        assertThatThrownBy(() -> store.store().permits().acquire(ONE, 1, true))
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("0 of 1 replicas")
            .hasMessageContaining("bulwark.redis.wait-replicas");
        assertThatThrownBy(() -> store.store().locks().acquire(LOCK, "42", LockMode.WRITE, 2, true))
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("bulwark.redis.wait-replicas");

        // not released: a release would hand the permit the replica never saw to the next waiter
        long now =
            Long.parseLong(String.valueOf(master.eval("return redis.call('TIME')[1]"))) * 1000;
        assertThat(master.zscore(holders(), store.member(1)))
            .as("lease of the unacknowledged permit")
            .isGreaterThan(now + 5_000.0);
        assertThat(master.hget(lockState(), "writer")).isEqualTo(store.member(2));
        assertThat(plain.store().permits().acquire(ONE, 3, false)).isEqualTo(Grant.REJECTED);
        assertThat(plain.store().locks().acquire(LOCK, "42", LockMode.READ, 4, false))
            .isEqualTo(Grant.REJECTED);
      } finally {
        redis.thawReplica();
      }
    }
  }

  /**
   * A {@code wait-replicas-timeout} longer than the {@code read-timeout}: WAIT answers only after
   * its timeout, later than a read would time out. That is still the replicas' answer, not a lost
   * connection: the call fails as unacknowledged, the grant stays held for its lease (not given up
   * to the next waiter), and the store is not declared down.
   */
  @Test
  void aWaitLongerThanTheReadTimeoutIsNotTakenForALostConnection() throws Exception {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.read-timeout", "150ms");
    try (RecordingStore store = open("1", "600ms", config);
        RecordingStore plain = open(null, null)) {
      redis.freezeReplica();
      try {
        assertThatThrownBy(() -> store.store().permits().acquire(ONE, 1, true))
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("0 of 1 replicas");
        assertThat(master.zscore(holders(), store.member(1))).as("still held").isNotNull();
        assertThat(plain.store().permits().acquire(ONE, 2, false)).isEqualTo(Grant.REJECTED);
      } finally {
        redis.thawReplica();
      }
      // the replicas answered: no outage, the next call goes to Redis at once
      assertThat(store.store().locks().acquire(LOCK, "42", LockMode.WRITE, 3, true).isGranted())
          .isTrue();
    }
  }

  /**
   * The connection breaks while a grant waits for its replica: the caller cannot tell whether it
   * was granted, so the store gives the request up (a cancel that releases the grant), as for any
   * lost reply; nothing stays taken for a lease.
   */
  @Test
  void aConnectionLostWhileWaitingForTheReplicaGivesTheGrantUp() throws Exception {
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (RecordingStore store = open("1", "20s")) {
      Future<Grant> acquire;
      redis.freezeReplica();
      try {
        acquire = caller.submit(() -> store.store().permits().acquire(ONE, 1, true));
        long waiting = awaitClientRunning("wait");
        assertThat(master.zscore(holders(), store.member(1)))
            .as("granted on the master")
            .isNotNull();
        master.sendCommand(Protocol.Command.CLIENT, "KILL", "ID", Long.toString(waiting));
        assertThatThrownBy(() -> acquire.get(10, TimeUnit.SECONDS))
            .hasCauseInstanceOf(StoreException.class);
      } finally {
        redis.thawReplica();
      }
      assertThat(master.zscore(holders(), store.member(1))).as("given up").isNull();
    } finally {
      caller.shutdownNow();
    }
  }

  /** The id of the master's client now running {@code command}, waited for up to 10 s. */
  private long awaitClientRunning(String command) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      for (String client :
          SafeEncoder.encode((byte[]) master.sendCommand(Protocol.Command.CLIENT, "LIST"))
              .split("\n")) {
        if (client.contains(" cmd=" + command + " ")) {
          return Long.parseLong(client.substring(3, client.indexOf(' ')));
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no client ran " + command + " within 10 s");
  }

  /**
   * A batch waits for the replicas when its answers hold a grant or it hands a permit to a waiter
   * of its own JVM (which starts from the reply); one that grants nothing does not wait.
   */
  @Test
  void aBatchWaitsForReplicasOnlyWhenItGrants() throws Exception {
    try (RecordingStore store = open("1", "100ms")) {
      assertThat(store.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
      redis.freezeReplica();
      try {
        // any WAIT would fall short now and fail the call
        assertThat(
                store
                    .store()
                    .permits()
                    .apply(ONE, List.of(Operation.acquire(2, true), Operation.acquire(3, false))))
            .containsExactly(Grant.QUEUED, Grant.REJECTED);
        assertThatThrownBy(
                () -> store.store().permits().apply(ONE, List.of(Operation.release("", 1))))
            .as("the release hands the permit to request 2 of this JVM")
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("replicas");
        assertThat(master.zscore(holders(), store.member(2)))
            .as("the hand-over is not given up: it runs out with its lease")
            .isNotNull();
      } finally {
        redis.thawReplica();
      }
    }
  }

  private RecordingStore open(String replicas, String timeout) {
    return open(replicas, timeout, new HashMap<>());
  }

  private RecordingStore open(String replicas, String timeout, Map<String, String> config) {
    config.put("bulwark.redis.url", redis.masterUrl());
    config.put("bulwark.redis.key-prefix", "wait-test:");
    config.put("bulwark.redis.pool-size", "2");
    if (replicas != null) {
      config.put("bulwark.redis.wait-replicas", replicas);
      config.put("bulwark.redis.wait-replicas-timeout", timeout);
    }
    return RecordingStore.open(RedisSettings.from(k -> Optional.ofNullable(config.get(k))));
  }

  private String holders() {
    return keys.bulkhead(ONE.name()).holders();
  }

  private String lockState() {
    return keys.lock(LOCK.name(), "42").state();
  }
}
