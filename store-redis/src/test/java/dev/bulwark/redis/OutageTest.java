package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.LockMode;
import dev.bulwark.RateLimitType;
import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.StoreException;
import dev.bulwark.tck.OutageRelay;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Redis unreachable: every call throws {@link StoreException} (the engine's failure policy takes it
 * from there), the first quickly, the ones that follow within the reconnect interval at once.
 */
class OutageTest {

  private static final String PREFIX = "test:outage:";

  /**
   * The store logs each outage with its stack trace; expected here, so kept out of the build log.
   */
  private static final Logger STORE_LOG = Logger.getLogger("dev.bulwark.redis");

  private static Level storeLogLevel;

  @BeforeAll
  static void quietStoreLog() {
    storeLogLevel = STORE_LOG.getLevel();
    STORE_LOG.setLevel(Level.SEVERE);
  }

  @AfterAll
  static void restoreStoreLog() {
    STORE_LOG.setLevel(storeLogLevel);
  }

  private static final PermitSpec PERMITS = new PermitSpec("pool", 1, 10_000);

  @Test
  void aClosedPortFailsQuicklyAndThenFastWithoutWaitingForTimeouts() throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    try (RecordingStore store = open("redis://127.0.0.1:" + closed, "10s", PREFIX)) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> store.store().permits().acquire(PERMITS, 1, true))
          .isInstanceOf(StoreException.class);
      // refused at once; the bound only tells that from waiting out a timeout again and again
      assertThat(millisSince(start)).isLessThan(5_000);

      assertEveryOperationFailsFast(store);
    }
  }

  @Test
  void aServerThatNeverAnswersCostsOneReadTimeoutThenCallsFailFast() throws IOException {
    // Accepts connections (the kernel's backlog) but never reads or answers.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        RecordingStore store = open("redis://127.0.0.1:" + silent.getLocalPort(), "10s", PREFIX)) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> store.store().permits().acquire(PERMITS, 1, true))
          .isInstanceOf(StoreException.class);
      // one read timeout (0.5 s) and a connect; the bound tells that from ten or more of them
      assertThat(millisSince(start)).isLessThan(5_000);

      assertEveryOperationFailsFast(store);
    }
  }

  @Test
  void aCutSubscriptionReadsAsDownAtOnceNotAfterTheReconnectInterval() throws Exception {
    URI redis = URI.create(TestRedisServer.url());
    try (OutageRelay relay = new OutageRelay(redis.getHost(), redis.getPort())) {
      relay.open();
      String relayed = TestRedisServer.through(TestRedisServer.url(), relay);
      try (RecordingStore store = open(relayed, "60s", "test:outage:" + System.nanoTime() + ":")) {
        assertThat(store.store().wakeUpsSubscribed()).isTrue();
        relay.close();
        // the subscription thread then sleeps a minute before it tries again: readiness must not
        // report the lost subscription as up all that time
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (store.store().wakeUpsSubscribed() && System.nanoTime() < deadline) {
          TimeUnit.MILLISECONDS.sleep(20);
        }
        assertThat(store.store().wakeUpsSubscribed()).as("subscribed after the cut").isFalse();
      }
    }
  }

  @Test
  void theStoreComingBackIsPickedUpWithoutARestart() throws Exception {
    URI redis = URI.create(TestRedisServer.url());
    try (OutageRelay relay = new OutageRelay(redis.getHost(), redis.getPort())) {
      String relayed = TestRedisServer.through(TestRedisServer.url(), relay);
      String prefix = "test:outage:" + System.nanoTime() + ":";
      try (RecordingStore down = open(relayed, "200ms", prefix);
          RecordingStore other = open(redis.toString(), "200ms", prefix)) {
        assertThatThrownBy(() -> down.store().permits().acquire(PERMITS, 1, true))
            .isInstanceOf(StoreException.class);

        relay.open();
        TimeUnit.MILLISECONDS.sleep(300); // past the reconnect interval: the next call tries

        assertThat(down.store().permits().acquire(PERMITS, 2, true)).isEqualTo(Grant.GRANTED);
        assertThat(other.store().permits().acquire(PERMITS, 3, true)).isEqualTo(Grant.QUEUED);
        down.store().permits().release(PERMITS, 2);
        try (RedisClient inspector = RedisClient.create(redis)) {
          assertThat(other.wakesSoFar(inspector)).containsExactly(new Wake(3, 0));
          // The wake-up subscription came back too: a hand-over to the relayed store reaches it.
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
          while (!down.store().wakeUpsSubscribed() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
          }
          assertThat(down.store().wakeUpsSubscribed()).isTrue();
          assertThat(down.store().permits().acquire(PERMITS, 4, true)).isEqualTo(Grant.QUEUED);
          other.store().permits().release(PERMITS, 3);
          assertThat(down.wakesSoFar(inspector)).containsExactly(new Wake(4, 0));
          down.store().permits().release(PERMITS, 4);
        }
      }
    }
  }

  private static void assertEveryOperationFailsFast(RecordingStore store) {
    LockSpec lock = new LockSpec("accounts", 10_000);
    RateSpec rate = new RateSpec("api", RateLimitType.SMOOTH, 10, 1_000_000_000L);
    List<ThrowingCallable> calls =
        List.of(
            () -> store.store().permits().acquire(PERMITS, 2, true),
            () -> store.store().permits().poll(PERMITS, 2),
            () -> store.store().permits().cancel(PERMITS, 2),
            () -> store.store().permits().release(PERMITS, 2),
            () -> store.store().permits().define(PERMITS),
            () -> store.store().locks().acquire(lock, "k", LockMode.WRITE, 3, false),
            () -> store.store().locks().release(lock, "k", 3),
            () -> store.store().rates().reserve(rate, 0),
            () -> store.store().rates().define(rate),
            () ->
                store.store().renew(List.of(new Lease(Lease.Kind.PERMIT, "pool", "", 2, 10_000))));
    for (ThrowingCallable call : calls) {
      // failing fast: the gate answers without trying the server, so the failure has no cause (a
      // call that tried carries the client's failure); no wall-clock bound needed
      assertThatThrownBy(call)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("unreachable")
          .hasNoCause();
    }
  }

  private static RecordingStore open(String url, String reconnectInterval, String prefix) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.url", url);
    config.put("bulwark.redis.key-prefix", prefix);
    config.put("bulwark.redis.connect-timeout", "300ms");
    config.put("bulwark.redis.read-timeout", "500ms");
    config.put("bulwark.redis.reconnect-interval", reconnectInterval);
    config.put("bulwark.redis.pool-size", "4");
    long start = System.nanoTime();
    RecordingStore store =
        RecordingStore.open(RedisSettings.from(key -> Optional.ofNullable(config.get(key))));
    // Opening waits for the subscription only up to the connect timeout (0.3 s), never until the
    // silent server answers; the bound is loose for a loaded machine
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    return store;
  }

  private static long millisSince(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }
}
