package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.LockMode;
import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import dev.bulwark.tck.OutageRelay;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * An acquire or poll whose reply is lost (the command ran, the connection broke before its answer
 * came back) is given up in the store before the failure reaches the caller: what it was granted is
 * released and handed on, a queue entry withdrawn, so nothing stays taken until a lease ends while
 * the caller, told only of the failure, never uses or releases it.
 */
@ExtendWith(RedisExtension.class)
class LostReplyTest {

  /** The store logs the outage the cut connection looks like; expected here. */
  private static final Logger STORE_LOG = Logger.getLogger("dev.bulwark.redis");

  private static Level storeLogLevel;

  private static final PermitSpec ONE = new PermitSpec("pool", 1, 60_000);
  private static final LockSpec LOCK = new LockSpec("accounts", 60_000);
  private static final String KEY = "42";

  private OutageRelay relay;
  private RedisClient redis;
  private RecordingStore relayed;
  private RecordingStore direct;

  @BeforeAll
  static void quietStoreLog() {
    storeLogLevel = STORE_LOG.getLevel();
    STORE_LOG.setLevel(Level.SEVERE);
  }

  @AfterAll
  static void restoreStoreLog() {
    STORE_LOG.setLevel(storeLogLevel);
  }

  @BeforeEach
  void open(TestRedis test) throws IOException {
    URI server = URI.create(test.url());
    relay = new OutageRelay(server.getHost(), server.getPort());
    relay.open();
    String viaRelay = TestRedisServer.through(test.url(), relay);
    relayed = test.open(Map.of("bulwark.redis.url", viaRelay, "bulwark.redis.read-timeout", "2s"));
    direct = test.open();
    redis = test.redis();
  }

  @AfterEach
  void closeRelay() {
    relay.close();
  }

  @Test
  void aGrantedAcquireWhoseReplyIsLostReleasesItsPermitToTheQueue() {
    RedisKeys.BulkheadKeys bulkhead = keysOf(ONE);
    // a warm connection, so the lost reply is the acquire's and not a connection handshake's
    assertThat(relayed.store().permits().poll(ONE, 100)).isEqualTo(Grant.REJECTED);
    relay.dropNextReply();

    assertThatThrownBy(() -> relayed.store().permits().acquire(ONE, 1, true))
        .isInstanceOf(StoreException.class);

    assertThat(relay.replyDropPending()).isFalse();
    assertThat(redis.exists(bulkhead.holders())).as("the permit went back").isFalse();
    assertThat(direct.store().permits().acquire(ONE, 2, false)).isEqualTo(Grant.GRANTED);
  }

  @Test
  void aQueuedAcquireWhoseReplyIsLostLeavesNoQueueEntry() {
    RedisKeys.BulkheadKeys bulkhead = keysOf(ONE);
    assertThat(direct.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(relayed.store().permits().poll(ONE, 100)).isEqualTo(Grant.REJECTED);
    relay.dropNextReply();

    assertThatThrownBy(() -> relayed.store().permits().acquire(ONE, 2, true))
        .isInstanceOf(StoreException.class);

    assertThat(relay.replyDropPending()).isFalse();
    assertThat(redis.exists(bulkhead.queue())).isFalse();
    assertThat(redis.exists(bulkhead.waiters())).isFalse();
    // the release finds nobody waiting: the lost request is not handed the permit
    direct.store().permits().release(ONE, 1);
    assertThat(redis.exists(bulkhead.holders())).isFalse();
  }

  @Test
  void aPollWhoseReplyIsLostWithdrawsTheQueuedRequest() {
    RedisKeys.BulkheadKeys bulkhead = keysOf(ONE);
    assertThat(direct.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(relayed.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(direct.store().permits().acquire(ONE, 3, true)).isEqualTo(Grant.QUEUED);
    relay.dropNextReply();

    assertThatThrownBy(() -> relayed.store().permits().poll(ONE, 2))
        .isInstanceOf(StoreException.class);

    assertThat(relay.replyDropPending()).isFalse();
    assertThat(redis.zrange(bulkhead.queue(), 0, -1)).containsExactly(direct.member(3));
    direct.store().permits().release(ONE, 1);
    assertThat(direct.wakesSoFar(redis)).containsExactly(new Wake(3, 0));
    assertThat(redis.zrange(bulkhead.holders(), 0, -1)).containsExactly(direct.member(3));
  }

  @Test
  void aGrantedWriteLockWhoseReplyIsLostIsReleased() {
    RedisKeys.LockKeys lock = relayedKeysOf(LOCK);
    assertThat(relayed.store().locks().poll(LOCK, KEY, 100)).isEqualTo(Grant.REJECTED);
    relay.dropNextReply();

    assertThatThrownBy(() -> relayed.store().locks().acquire(LOCK, KEY, LockMode.WRITE, 1, true))
        .isInstanceOf(StoreException.class);

    assertThat(relay.replyDropPending()).isFalse();
    assertThat(redis.hexists(lock.state(), "writer")).as("the write lock went back").isFalse();
    assertThat(direct.store().locks().acquire(LOCK, KEY, LockMode.WRITE, 2, false).isGranted())
        .isTrue();
  }

  /**
   * The acquire is slow on its way (its connection times out first) and the give-up, sent on
   * another connection, reaches Redis before it: the acquire that arrives afterwards grants
   * nothing, where it would take a permit that nobody uses, releases or renews.
   */
  @Test
  void anAcquireArrivingAfterItsGiveUpTakesNoPermit() throws Exception {
    RedisKeys.BulkheadKeys bulkhead = keysOf(ONE);
    assertThat(relayed.store().permits().poll(ONE, 100)).isEqualTo(Grant.REJECTED);
    relay.holdNextRequest();

    assertThatThrownBy(() -> relayed.store().permits().acquire(ONE, 1, true))
        .isInstanceOf(StoreException.class);
    assertThat(relay.requestHeld()).as("the acquire has not reached Redis").isTrue();

    assertThat(relay.deliverHeldRequest(10, TimeUnit.SECONDS)).as("the late acquire ran").isTrue();
    assertThat(redis.zrange(bulkhead.holders(), 0, -1)).as("nothing granted").isEmpty();
    assertThat(redis.exists(bulkhead.queue())).as("nothing queued").isFalse();
    assertThat(redis.hkeys(bulkhead.state())).as("the give-up's mark is used up").isEmpty();
    assertThat(direct.store().permits().acquire(ONE, 2, false)).isEqualTo(Grant.GRANTED);
  }

  /** The same for a lock key: the late acquire finds its give-up's mark and takes nothing. */
  @Test
  void aLockAcquireArrivingAfterItsGiveUpTakesNoLock() throws Exception {
    RedisKeys.LockKeys lock = relayedKeysOf(LOCK);
    assertThat(relayed.store().locks().poll(LOCK, KEY, 100)).isEqualTo(Grant.REJECTED);
    relay.holdNextRequest();

    assertThatThrownBy(() -> relayed.store().locks().acquire(LOCK, KEY, LockMode.WRITE, 1, true))
        .isInstanceOf(StoreException.class);
    assertThat(relay.requestHeld()).as("the acquire has not reached Redis").isTrue();

    assertThat(relay.deliverHeldRequest(10, TimeUnit.SECONDS)).as("the late acquire ran").isTrue();
    assertThat(redis.hexists(lock.state(), "writer")).as("nothing granted").isFalse();
    assertThat(redis.exists(lock.queue())).as("nothing queued").isFalse();
    assertThat(direct.store().locks().acquire(LOCK, KEY, LockMode.WRITE, 2, false).isGranted())
        .isTrue();
  }

  private RedisKeys.BulkheadKeys keysOf(PermitSpec spec) {
    return new RedisKeys(relayed.store().settings().keyPrefix()).bulkhead(spec.name());
  }

  private RedisKeys.LockKeys relayedKeysOf(LockSpec spec) {
    return new RedisKeys(relayed.store().settings().keyPrefix()).lock(spec.name(), KEY);
  }
}
