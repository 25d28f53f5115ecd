package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * A call re-sent with the same request id, as Jedis re-sends a command whose reply a connection
 * error or read timeout lost: every permit and lock script answers it as the first time and changes
 * nothing, so no ghost queue entry is left to receive the caller's own release.
 */
@ExtendWith(RedisExtension.class)
class RetriedCallsTest {

  private static final PermitSpec ONE = new PermitSpec("pool", 1, 10_000);
  private static final LockSpec LOCK = new LockSpec("accounts", 10_000);
  private static final String KEY = "42";

  private TestRedis test;
  private RedisClient redis;
  private RecordingStore a;
  private RecordingStore b;
  private RedisKeys.BulkheadKeys bulkhead;
  private RedisKeys.LockKeys lock;

  @BeforeEach
  void open(TestRedis test) {
    this.test = test;
    this.redis = test.redis();
    a = test.open();
    b = test.open();
    bulkhead = test.keys().bulkhead(ONE.name());
    lock = test.keys().lock(LOCK.name(), KEY);
  }

  @Test
  void aHolderAskingAgainIsToldGrantedAndHoldsOnce() {
    assertThat(permits(a).acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);

    assertThat(permits(a).acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);

    assertThat(redis.zrange(bulkhead.holders(), 0, -1)).containsExactly(a.member(1));
    assertThat(redis.exists(bulkhead.queue())).isFalse();
    assertThat(redis.exists(bulkhead.waiters())).isFalse();
  }

  @Test
  void aQueuedRequestAskingAgainIsToldQueuedAndWaitsOnce() {
    assertThat(permits(a).acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(permits(b).acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);

    assertThat(permits(b).acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);

    assertThat(redis.zrange(bulkhead.queue(), 0, -1)).containsExactly(b.member(2));
    assertThat(redis.zrange(bulkhead.waiters(), 0, -1)).containsExactly(b.member(2));
  }

  /** The reported fault, end to end: a granted acquire re-sent, then the release, twice. */
  @Test
  void aRetriedAcquireThenARetriedReleaseHandTheirPermitOnExactlyOnce() {
    assertThat(permits(a).acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(permits(b).acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(permits(b).acquire(ONE, 3, true)).isEqualTo(Grant.QUEUED);
    assertThat(permits(a).acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED); // the re-sent call

    permits(a).release(ONE, 1);
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(2, 0));
    assertThat(redis.zrange(bulkhead.holders(), 0, -1)).containsExactly(b.member(2));

    permits(a).release(ONE, 1); // re-sent: a holds nothing any more

    assertThat(redis.zrange(bulkhead.holders(), 0, -1)).containsExactly(b.member(2));
    assertThat(redis.zrange(bulkhead.queue(), 0, -1)).containsExactly(b.member(3));
    assertThat(a.wakesSoFar(redis)).isEmpty();
    assertThat(b.wakesSoFar(redis)).isEmpty();
  }

  @Test
  void aWriterAskingAgainGetsItsSameTokenAndHoldsOnce() {
    Grant first = locks(a).acquire(LOCK, KEY, LockMode.WRITE, 1, true);
    assertThat(first.isGranted()).isTrue();

    assertThat(locks(a).acquire(LOCK, KEY, LockMode.WRITE, 1, true)).isEqualTo(first);

    assertThat(redis.hget(lock.state(), "writer")).isEqualTo(a.member(1));
    assertThat(redis.hget(lock.state(), "fence")).isEqualTo(Long.toString(first.fencingToken()));
    assertThat(redis.exists(lock.queue())).isFalse();
    assertThat(redis.exists(lock.waiters())).isFalse();
  }

  @Test
  void aReaderAskingAgainGetsItsSameTokenAndHoldsOnce() {
    Grant first = locks(a).acquire(LOCK, KEY, LockMode.READ, 1, true);
    assertThat(locks(b).acquire(LOCK, KEY, LockMode.WRITE, 2, true)).isEqualTo(Grant.QUEUED);

    assertThat(locks(a).acquire(LOCK, KEY, LockMode.READ, 1, true)).isEqualTo(first);

    assertThat(redis.zrange(lock.readers(), 0, -1)).containsExactly(a.member(1));
    assertThat(redis.zrange(lock.queue(), 0, -1)).containsExactly(b.member(2));
  }

  @Test
  void aQueuedLockRequestAskingAgainIsToldQueuedAndWaitsOnce() {
    assertThat(locks(a).acquire(LOCK, KEY, LockMode.WRITE, 1, true).isGranted()).isTrue();
    assertThat(locks(b).acquire(LOCK, KEY, LockMode.READ, 2, true)).isEqualTo(Grant.QUEUED);

    assertThat(locks(b).acquire(LOCK, KEY, LockMode.READ, 2, true)).isEqualTo(Grant.QUEUED);

    assertThat(redis.zrange(lock.queue(), 0, -1)).containsExactly(b.member(2));
    assertThat(redis.zrange(lock.waiters(), 0, -1)).containsExactly(b.member(2));
  }

  @Test
  void aRetriedWriteAcquireThenARetriedReleaseHandTheLockOnExactlyOnce() {
    long token = locks(a).acquire(LOCK, KEY, LockMode.WRITE, 1, true).fencingToken();
    assertThat(locks(b).acquire(LOCK, KEY, LockMode.WRITE, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(locks(b).acquire(LOCK, KEY, LockMode.WRITE, 3, true)).isEqualTo(Grant.QUEUED);
    assertThat(locks(a).acquire(LOCK, KEY, LockMode.WRITE, 1, true))
        .isEqualTo(Grant.granted(token));

    locks(a).release(LOCK, KEY, 1);
    List<Wake> handOver = b.wakesSoFar(redis);
    assertThat(handOver).hasSize(1);
    assertThat(handOver.get(0).requestId()).isEqualTo(2);
    assertThat(handOver.get(0).token()).isGreaterThan(token);

    locks(a).release(LOCK, KEY, 1); // re-sent: a holds nothing any more

    assertThat(redis.hget(lock.state(), "writer")).isEqualTo(b.member(2));
    assertThat(redis.hget(lock.state(), "fence")).isEqualTo(Long.toString(handOver.get(0).token()));
    assertThat(redis.zrange(lock.queue(), 0, -1)).containsExactly(b.member(3));
    assertThat(a.wakesSoFar(redis)).isEmpty();
    assertThat(b.wakesSoFar(redis)).isEmpty();
  }

  private static PermitStore permits(RecordingStore store) {
    return store.store().permits();
  }

  private static LockStore locks(RecordingStore store) {
    return store.store().locks();
  }
}
