package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Outcome;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/** The keyed read-write lock scripts (lock_acquire, _poll, _cancel, _release, renew). */
@ExtendWith(RedisExtension.class)
class LockScriptsTest {

  private static final String NAME = "accounts";
  private static final String KEY = "42";
  private static final LockSpec SPEC = new LockSpec(NAME, 10_000);

  private TestRedis test;
  private RedisClient redis;
  private RecordingStore a;
  private RecordingStore b;
  private String readers;
  private String state;
  private String queue;
  private String waiters;

  @BeforeEach
  void open(TestRedis test) {
    this.test = test;
    this.redis = test.redis();
    a = test.open();
    b = test.open();
    String tag = test.prefix() + "{l:" + NAME + ":" + RedisKeys.hash(KEY) + "}";
    readers = tag + ":readers";
    state = tag + ":state";
    queue = tag + ":queue-order";
    waiters = tag + ":queue-leases";
  }

  @Test
  void manyReadersHoldTheLockTogether() {
    Grant first = acquire(a, 1, LockMode.READ, false);
    assertThat(first.isGranted()).isTrue();
    assertThat(acquire(b, 2, LockMode.READ, false)).isEqualTo(first);
    assertThat(acquire(a, 3, LockMode.READ, false)).isEqualTo(first);

    assertThat(redis.type(readers)).isEqualTo("zset");
    assertThat(redis.zrange(readers, 0, -1))
        .containsExactlyInAnyOrder(a.member(1), b.member(2), a.member(3));
    assertThat(redis.hexists(state, "writer")).isFalse();
    // a key with no recorded write gives its readers a token from the server's clock, never 0
    assertThat(redis.hget(state, "fence")).isEqualTo(Long.toString(first.fencingToken()));
    assertThat(acquire(b, 4, LockMode.WRITE, false)).isEqualTo(Grant.REJECTED);
    test.assertEveryKeyExpires();
  }

  @Test
  void aWriterExcludesReadersAndWriters() {
    Grant writer = acquire(a, 1, LockMode.WRITE, false);
    assertThat(writer.outcome()).isEqualTo(Outcome.GRANTED);
    assertThat(writer.fencingToken()).isPositive();

    assertThat(acquire(b, 2, LockMode.READ, false)).isEqualTo(Grant.REJECTED);
    assertThat(acquire(b, 3, LockMode.WRITE, false)).isEqualTo(Grant.REJECTED);
    assertThat(acquire(a, 4, LockMode.READ, false)).isEqualTo(Grant.REJECTED);

    // the writer lives in the state hash, with its lease expiry; readers only in their set
    assertThat(redis.exists(readers)).isFalse();
    assertThat(redis.type(state)).isEqualTo("hash");
    assertThat(redis.hget(state, "writer")).isEqualTo(a.member(1));
    assertThat(redis.hget(state, "writer_until")).matches("\\d+");
    assertThat(redis.hget(state, "fence")).isEqualTo(Long.toString(writer.fencingToken()));
    test.assertEveryKeyExpires();
  }

  @Test
  void aQueuedWriterHoldsBackALaterReader() {
    assertThat(acquire(a, 1, LockMode.READ, true).isGranted()).isTrue();
    assertThat(acquire(b, 2, LockMode.WRITE, true)).isEqualTo(Grant.QUEUED);
    // Only a reader holds the lock, yet the reader that comes later waits behind the writer.
    assertThat(acquire(a, 3, LockMode.READ, false)).isEqualTo(Grant.REJECTED);
    assertThat(acquire(a, 4, LockMode.READ, true)).isEqualTo(Grant.QUEUED);
    assertThat(redis.zrange(queue, 0, -1)).containsExactly(b.member(2), a.member(4));
    assertThat(redis.hget(state, "queued:" + b.member(2))).matches("W:[0-9a-f]{32}");
    assertThat(redis.hget(state, "queued:" + a.member(4))).matches("R:[0-9a-f]{32}");
    assertThat(redis.zrange(waiters, 0, -1)).containsExactlyInAnyOrder(b.member(2), a.member(4));
    test.assertEveryKeyExpires();

    locks(a).release(SPEC, KEY, 1);
    List<Wake> writerWake = b.wakesSoFar(redis);
    assertThat(writerWake).hasSize(1);
    assertThat(writerWake.get(0).requestId()).isEqualTo(2);
    long token = writerWake.get(0).token();
    assertThat(token).isPositive();
    assertThat(a.wakesSoFar(redis)).isEmpty();
    assertThat(redis.hget(state, "writer")).isEqualTo(b.member(2));

    locks(b).release(SPEC, KEY, 2);
    // A reader carries the token of the last write.
    assertThat(a.wakesSoFar(redis)).containsExactly(new Wake(4, token));
    assertThat(b.wakesSoFar(redis)).isEmpty();
    assertThat(locks(a).poll(SPEC, KEY, 4)).isEqualTo(Grant.granted(token));
  }

  @Test
  void releaseHandsOverARunOfReadersTogetherOrOneWriter() {
    long first = acquire(a, 1, LockMode.WRITE, true).fencingToken();
    assertThat(acquire(a, 2, LockMode.READ, true)).isEqualTo(Grant.QUEUED);
    assertThat(acquire(b, 3, LockMode.READ, true)).isEqualTo(Grant.QUEUED);
    assertThat(acquire(a, 4, LockMode.WRITE, true)).isEqualTo(Grant.QUEUED);
    assertThat(acquire(b, 5, LockMode.READ, true)).isEqualTo(Grant.QUEUED);

    locks(a).release(SPEC, KEY, 1);
    assertThat(a.wakesSoFar(redis)).containsExactly(new Wake(2, first));
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(3, first));
    assertThat(redis.zrange(readers, 0, -1)).containsExactlyInAnyOrder(a.member(2), b.member(3));
    assertThat(redis.zrange(queue, 0, -1)).containsExactly(a.member(4), b.member(5));

    locks(a).release(SPEC, KEY, 2);
    assertThat(a.wakesSoFar(redis)).isEmpty(); // reader 3 still holds: the writer waits
    assertThat(b.wakesSoFar(redis)).isEmpty();

    locks(b).release(SPEC, KEY, 3);
    List<Wake> writerWake = a.wakesSoFar(redis);
    assertThat(writerWake).hasSize(1);
    assertThat(writerWake.get(0).requestId()).isEqualTo(4);
    long second = writerWake.get(0).token();
    assertThat(second).isGreaterThan(first);
    assertThat(b.wakesSoFar(redis)).isEmpty();
    assertThat(redis.exists(readers)).isFalse();
    assertThat(redis.hget(state, "writer")).isEqualTo(a.member(4));

    locks(a).release(SPEC, KEY, 4);
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(5, second));
    assertThat(a.wakesSoFar(redis)).isEmpty();
    locks(b).release(SPEC, KEY, 5);
    assertThat(redis.exists(readers)).isFalse();
    assertThat(redis.exists(queue)).isFalse();
    assertThat(redis.exists(waiters)).isFalse();
    test.assertEveryKeyExpires();
  }

  @Test
  void fencingTokensOfWriteGrantsStrictlyIncrease() {
    long before = test.serverMicros();
    long first = acquire(a, 1, LockMode.WRITE, false).fencingToken();
    long after = test.serverMicros();
    // A fresh key seeds its counter with the server's clock in microseconds.
    assertThat(first).isBetween(before, after);
    locks(a).release(SPEC, KEY, 1);

    long second = acquire(b, 2, LockMode.WRITE, false).fencingToken();
    assertThat(second).isGreaterThan(first);
    locks(b).release(SPEC, KEY, 2);

    assertThat(acquire(a, 3, LockMode.READ, false)).isEqualTo(Grant.granted(second));
    locks(a).release(SPEC, KEY, 3);

    long third = acquire(a, 4, LockMode.WRITE, true).fencingToken();
    assertThat(third).isGreaterThan(second);
    assertThat(acquire(b, 5, LockMode.WRITE, true)).isEqualTo(Grant.QUEUED);
    locks(a).release(SPEC, KEY, 4);

    List<Wake> handOver = b.wakesSoFar(redis);
    assertThat(handOver).hasSize(1);
    assertThat(handOver.get(0).requestId()).isEqualTo(5);
    assertThat(handOver.get(0).token()).isGreaterThan(third);
    assertThat(locks(b).poll(SPEC, KEY, 5)).isEqualTo(Grant.granted(handOver.get(0).token()));
    assertThat(redis.hget(state, "fence")).isEqualTo(Long.toString(handOver.get(0).token()));
  }

  @Test
  void aKeyWhoseStateExpiredRestartsItsFencingCounterAboveThePreviousTokens()
      throws InterruptedException {
    LockSpec shortLease = new LockSpec(NAME, 200);
    long first = acquire(a, 1, LockMode.WRITE, false, shortLease).fencingToken();
    long second = first;
    for (long request = 2; request < 12; request++) {
      locks(a).release(shortLease, KEY, request - 1);
      long next = acquire(a, request, LockMode.WRITE, false, shortLease).fencingToken();
      assertThat(next).isGreaterThan(second);
      second = next;
    }
    locks(a).release(shortLease, KEY, 11);
    assertThat(redis.hget(state, "fence")).isEqualTo(Long.toString(second));
    test.assertEveryKeyExpires();

    Thread.sleep(500); // past twice the lease: the idle key's state expires
    assertThat(test.keyNames()).isEmpty();

    long before = test.serverMicros();
    long restarted = acquire(b, 12, LockMode.WRITE, false, shortLease).fencingToken();
    assertThat(restarted).isGreaterThan(second).isGreaterThanOrEqualTo(before);
  }

  @Test
  void cancellingAQueuedWriterLetsTheReadersBehindItIn() {
    long token = acquire(a, 1, LockMode.READ, true).fencingToken();
    assertThat(token).isPositive();
    assertThat(acquire(b, 2, LockMode.WRITE, true)).isEqualTo(Grant.QUEUED);
    assertThat(acquire(a, 3, LockMode.READ, true)).isEqualTo(Grant.QUEUED);
    assertThat(acquire(b, 4, LockMode.READ, true)).isEqualTo(Grant.QUEUED);

    assertThat(locks(b).cancel(SPEC, KEY, 2)).isEqualTo(Grant.REJECTED);

    assertThat(a.wakesSoFar(redis)).containsExactly(new Wake(3, token));
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(4, token));
    assertThat(redis.zrange(readers, 0, -1))
        .containsExactlyInAnyOrder(a.member(1), a.member(3), b.member(4));
    assertThat(redis.exists(queue)).isFalse();
    assertThat(redis.exists(waiters)).isFalse();
    assertThat(locks(b).poll(SPEC, KEY, 2)).isEqualTo(Grant.REJECTED);
  }

  @Test
  void cancelReportsGrantedWithTheTokenWhenTheHandOverWonTheRace() {
    long first = acquire(a, 1, LockMode.WRITE, true).fencingToken();
    assertThat(acquire(b, 2, LockMode.WRITE, true)).isEqualTo(Grant.QUEUED);

    locks(a).release(SPEC, KEY, 1);
    Grant cancelled = locks(b).cancel(SPEC, KEY, 2);
    assertThat(cancelled.isGranted()).isTrue();
    assertThat(cancelled.fencingToken()).isGreaterThan(first);
    assertThat(redis.hget(state, "fence")).isEqualTo(Long.toString(cancelled.fencingToken()));

    assertThat(redis.exists(readers)).isFalse();
    assertThat(redis.hget(state, "writer")).isEqualTo(b.member(2));
  }

  @Test
  void eachHolderHasItsGrantTimeInTheStateHashUntilItIsReleased() throws InterruptedException {
    long before = test.serverMicros();
    assertThat(acquire(a, 1, LockMode.WRITE, true).isGranted()).isTrue();
    assertThat(acquire(b, 2, LockMode.READ, true)).isEqualTo(Grant.QUEUED);
    long after = test.serverMicros();
    assertThat(Long.parseLong(redis.hget(state, "since:" + a.member(1)))).isBetween(before, after);
    assertThat(redis.hexists(state, "since:" + b.member(2))).as("queued: not a holder").isFalse();

    Thread.sleep(5); // so that the hand-over's time lies after the reader's arrival
    long beforeRelease = test.serverMicros();
    assertThat(locks(a).release(SPEC, KEY, 1)).isTrue();
    long afterRelease = test.serverMicros();
    assertThat(redis.hexists(state, "since:" + a.member(1))).isFalse();
    assertThat(Long.parseLong(redis.hget(state, "since:" + b.member(2))))
        .as("a handed-over lock's time is the hand-over's")
        .isBetween(beforeRelease, afterRelease);

    // a re-sent read acquire only sets the lease again
    String since = redis.hget(state, "since:" + b.member(2));
    assertThat(acquire(b, 2, LockMode.READ, true).isGranted()).isTrue();
    assertThat(redis.hget(state, "since:" + b.member(2))).isEqualTo(since);
    test.assertEveryKeyExpires();

    assertThat(locks(b).release(SPEC, KEY, 2)).isTrue();
    assertThat(redis.hkeys(state)).as("only the fencing counter stays").containsExactly("fence");
  }

  @Test
  void pollSaysGrantedQueuedOrRejected() {
    long token = acquire(a, 1, LockMode.WRITE, true).fencingToken();
    assertThat(acquire(b, 2, LockMode.READ, true)).isEqualTo(Grant.QUEUED);

    assertThat(locks(a).poll(SPEC, KEY, 1)).isEqualTo(Grant.granted(token));
    assertThat(locks(b).poll(SPEC, KEY, 2)).isEqualTo(Grant.QUEUED);
    assertThat(locks(b).poll(SPEC, KEY, 99)).isEqualTo(Grant.REJECTED);
    assertThat(locks(a).poll(SPEC, "another key", 1)).isEqualTo(Grant.REJECTED);
  }

  @Test
  void differentKeysNeverBlockEachOther() {
    assertThat(locks(a).acquire(SPEC, "k1", LockMode.WRITE, 1, false).isGranted()).isTrue();
    assertThat(locks(b).acquire(SPEC, "k2", LockMode.WRITE, 2, false).isGranted()).isTrue();
    assertThat(locks(b).acquire(SPEC, "k3", LockMode.READ, 3, false).isGranted()).isTrue();
    assertThat(locks(a).acquire(new LockSpec("other", 10_000), "k1", LockMode.WRITE, 4, false))
        .extracting(Grant::isGranted)
        .isEqualTo(true);
    assertThat(locks(b).acquire(SPEC, "k1", LockMode.READ, 5, false)).isEqualTo(Grant.REJECTED);
  }

  @Test
  void untrustedKeysAreHashedAndNeverAppearRawInKeyNames() {
    List<String> untrusted =
        List.of("a b{c}\n", "}{", "{}", "", "ключ 🔑", "*", "x:y:z", "\u0000\r\n\t\"'\\");
    long request = 1;
    for (String key : untrusted) {
      assertThat(locks(a).acquire(SPEC, key, LockMode.WRITE, request++, false).isGranted())
          .as("write lock on %s", key)
          .isTrue();
    }
    // One lock per key, each independent of the others.
    assertThat(locks(b).acquire(SPEC, "a b{c}\n", LockMode.READ, 100, false))
        .isEqualTo(Grant.REJECTED);

    List<String> names = List.copyOf(test.keyNames());
    assertThat(names).hasSize(untrusted.size()); // a writer's state hash per key
    for (String name : names) {
      String rest = name.substring(test.prefix().length());
      assertThat(rest).matches("\\{l:" + NAME + ":[0-9a-f]{32}\\}:state");
    }
    for (String key : untrusted) {
      String tag = "{l:" + NAME + ":" + RedisKeys.hash(key) + "}";
      assertThat(names).contains(test.prefix() + tag + ":state");
    }
  }

  @Test
  void anExpiredWriterIsReclaimedAndItsMarkDropped() throws InterruptedException {
    LockSpec shortLease = new LockSpec(NAME, 200);
    long token = acquire(a, 1, LockMode.WRITE, false, shortLease).fencingToken();

    Thread.sleep(300); // the writer's JVM "died"

    assertThat(acquire(b, 2, LockMode.READ, false)).isEqualTo(Grant.granted(token));
    assertThat(redis.hexists(state, "writer")).isFalse();
    assertThat(redis.zrange(readers, 0, -1)).containsExactly(b.member(2));
    assertThat(redis.hkeys(state))
        .as("the reclaimed writer's grant time goes with it")
        .containsExactlyInAnyOrder("fence", "since:" + b.member(2));
  }

  @Test
  void anExpiredReaderIsReclaimedWithItsGrantTime() throws InterruptedException {
    LockSpec shortLease = new LockSpec(NAME, 200);
    assertThat(acquire(a, 1, LockMode.READ, false, shortLease).isGranted()).isTrue();
    assertThat(acquire(b, 2, LockMode.WRITE, true)).isEqualTo(Grant.QUEUED);

    Thread.sleep(300); // the reader's JVM "died"

    assertThat(locks(b).poll(SPEC, KEY, 2).isGranted()).isTrue();
    assertThat(redis.exists(readers)).isFalse();
    assertThat(redis.hkeys(state))
        .containsExactlyInAnyOrder("fence", "writer", "writer_until", "since:" + b.member(2));
  }

  @Test
  void aQueuedRequestWhoseLeaseRanOutIsSkippedAtHandOver() throws InterruptedException {
    LockSpec shortLease = new LockSpec(NAME, 200);
    long token = acquire(a, 1, LockMode.READ, true).fencingToken();
    assertThat(acquire(b, 2, LockMode.WRITE, true, shortLease)).isEqualTo(Grant.QUEUED);
    assertThat(acquire(a, 3, LockMode.READ, true)).isEqualTo(Grant.QUEUED);

    Thread.sleep(300); // b's JVM "died" while its writer waited

    locks(a).release(SPEC, KEY, 1);
    assertThat(a.wakesSoFar(redis)).containsExactly(new Wake(3, token));
    assertThat(b.wakesSoFar(redis)).isEmpty();
    assertThat(redis.zrange(readers, 0, -1)).containsExactly(a.member(3));
  }

  @Test
  void renewExtendsHeldAndQueuedLockLeasesAndReportsLostOnes() throws InterruptedException {
    LockSpec second = new LockSpec(NAME, 1_000);
    assertThat(acquire(a, 1, LockMode.WRITE, true, second).isGranted()).isTrue();
    assertThat(acquire(b, 2, LockMode.READ, true, second)).isEqualTo(Grant.QUEUED);
    long heldBefore = Long.parseLong(redis.hget(state, "writer_until"));
    String since = redis.hget(state, "since:" + a.member(1));
    long queuedBefore = redis.zscore(waiters, b.member(2)).longValue();

    Thread.sleep(20);
    assertThat(a.store().renew(List.of(lease(1), lease(77)))).containsExactly(lease(77));
    assertThat(b.store().renew(List.of(lease(2)))).isEmpty();

    assertThat(Long.parseLong(redis.hget(state, "writer_until"))).isGreaterThan(heldBefore + 9_000);
    assertThat(redis.hget(state, "since:" + a.member(1))).as("renewal keeps it").isEqualTo(since);
    // renewal keeps the entry's wake-up secret
    assertThat(redis.hget(state, "queued:" + b.member(2))).matches("R:[0-9a-f]{32}");
    assertThat(redis.zscore(waiters, b.member(2)).longValue()).isGreaterThan(queuedBefore + 9_000);
    for (String key : List.of(state, queue, waiters)) { // no reader holds: no readers key
      assertThat(redis.pttl(key)).as("PTTL of %s", key).isGreaterThan(9_000);
    }

    locks(a).release(second, KEY, 1);
    assertThat(b.wakesSoFar(redis)).hasSize(1);
    locks(b).release(second, KEY, 2);
    assertThat(a.store().renew(List.of(lease(1)))).containsExactly(lease(1));
  }

  private static Lease lease(long requestId) {
    return new Lease(Lease.Kind.LOCK, NAME, KEY, requestId, 10_000);
  }

  private static LockStore locks(RecordingStore store) {
    return store.store().locks();
  }

  private static Grant acquire(RecordingStore store, long request, LockMode mode, boolean queue) {
    return acquire(store, request, mode, queue, SPEC);
  }

  private static Grant acquire(
      RecordingStore store, long request, LockMode mode, boolean queue, LockSpec spec) {
    return locks(store).acquire(spec, KEY, mode, request, queue);
  }
}
