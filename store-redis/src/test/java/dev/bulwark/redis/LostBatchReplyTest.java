package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import dev.bulwark.tck.OutageRelay;
import java.io.IOException;
import java.net.URI;
import java.util.List;
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
 * A batch whose reply is lost (it ran, the connection broke before the answer came back) gives up
 * every acquire and poll in it with one more call before the failure reaches its callers: grants
 * are released and handed on, queue entries withdrawn. A batch that reaches Redis only after its
 * give-up (a slow path) grants and queues nothing.
 */
@ExtendWith(RedisExtension.class)
class LostBatchReplyTest {

  /** The store logs the outage the cut connection looks like; expected here. */
  private static final Logger STORE_LOG = Logger.getLogger("dev.bulwark.redis");

  private static Level storeLogLevel;

  private static final PermitSpec TWO = new PermitSpec("pool", 2, 60_000);
  private static final LockSpec LOCK = new LockSpec("accounts", 60_000);

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
  void everyAcquireAndPollOfABatchWhoseReplyIsLostIsGivenUp() {
    RedisKeys.BulkheadKeys bulkhead = keysOf(TWO);
    assertThat(direct.store().permits().acquire(TWO, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(relayed.store().permits().acquire(TWO, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(relayed.store().permits().acquire(TWO, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(direct.store().permits().acquire(TWO, 2, true)).isEqualTo(Grant.QUEUED);
    relay.dropNextReply();

    // release 1 hands the permit to request 2 of this JVM, which the poll would learn; request 3
    // queues behind the other JVM's request 2, request 4 is rejected
    List<Operation> batch =
        List.of(
            Operation.release("", 1),
            Operation.poll("", 2),
            Operation.acquire(3, true),
            Operation.acquire(4, false));
    assertThatThrownBy(() -> relayed.store().permits().apply(TWO, batch))
        .isInstanceOf(StoreException.class);

    assertThat(relay.replyDropPending()).isFalse();
    // request 2's permit was given back and handed on; request 3's queue entry withdrawn
    assertThat(redis.zrange(bulkhead.holders(), 0, -1))
        .containsExactlyInAnyOrder(direct.member(1), direct.member(2));
    assertThat(redis.exists(bulkhead.queue())).as("nothing queued").isFalse();
    assertThat(direct.wakesSoFar(redis)).containsExactly(new RecordingStore.Wake(2, 0));
  }

  @Test
  void aBatchArrivingAfterItsGiveUpTakesNothing() throws Exception {
    RedisKeys.BulkheadKeys bulkhead = keysOf(TWO);
    assertThat(relayed.store().permits().poll(TWO, 100)).isEqualTo(Grant.REJECTED);
    relay.holdNextRequest();

    List<Operation> batch = List.of(Operation.acquire(1, true), Operation.acquire(2, true));
    assertThatThrownBy(() -> relayed.store().permits().apply(TWO, batch))
        .isInstanceOf(StoreException.class);
    assertThat(relay.requestHeld()).as("the batch has not reached Redis").isTrue();

    assertThat(relay.deliverHeldRequest(10, TimeUnit.SECONDS)).as("the late batch ran").isTrue();
    assertThat(redis.zrange(bulkhead.holders(), 0, -1)).as("nothing granted").isEmpty();
    assertThat(redis.exists(bulkhead.queue())).as("nothing queued").isFalse();
    assertThat(redis.hkeys(bulkhead.state())).as("the give-up's marks are used up").isEmpty();
    assertThat(direct.store().permits().acquire(TWO, 1, false)).isEqualTo(Grant.GRANTED);
  }

  @Test
  void theLocksOfALockBatchWhoseReplyIsLostAreReleased() {
    RedisKeys keys = new RedisKeys(relayed.store().settings().keyPrefix());
    assertThat(relayed.store().locks().poll(LOCK, "a", 100)).isEqualTo(Grant.REJECTED);
    relay.dropNextReply();

    List<Operation> batch =
        List.of(
            Operation.acquire("a", LockMode.WRITE, 1, true),
            Operation.acquire("b", LockMode.READ, 2, true));
    assertThatThrownBy(() -> relayed.store().locks().apply(LOCK, batch))
        .isInstanceOf(StoreException.class);

    assertThat(relay.replyDropPending()).isFalse();
    assertThat(redis.hexists(keys.lock(LOCK.name(), "a").state(), "writer")).isFalse();
    assertThat(redis.exists(keys.lock(LOCK.name(), "b").readers())).isFalse();
    assertThat(direct.store().locks().acquire(LOCK, "a", LockMode.WRITE, 3, false).isGranted())
        .isTrue();
    assertThat(direct.store().locks().acquire(LOCK, "b", LockMode.WRITE, 4, false).isGranted())
        .isTrue();
  }

  private RedisKeys.BulkheadKeys keysOf(PermitSpec spec) {
    return new RedisKeys(relayed.store().settings().keyPrefix()).bulkhead(spec.name());
  }
}
