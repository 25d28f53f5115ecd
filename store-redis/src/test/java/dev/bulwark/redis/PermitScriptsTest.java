package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PermitSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.resps.Tuple;

/** The bulkhead scripts (permit_acquire, _poll, _cancel, _release, renew) against a real Redis. */
@ExtendWith(RedisExtension.class)
class PermitScriptsTest {

  private static final String NAME = "pool";
  private static final PermitSpec ONE = new PermitSpec(NAME, 1, 10_000);

  private TestRedis test;
  private RedisClient redis;
  private RecordingStore a;
  private RecordingStore b;
  private String holders;
  private String queue;
  private String waiters;
  private String state;

  @BeforeEach
  void open(TestRedis test) {
    this.test = test;
    this.redis = test.redis();
    a = test.open();
    b = test.open();
    assertThat(a.instance()).matches("[0-9a-f]{16}").isNotEqualTo(b.instance());
    holders = test.prefix() + "{b:" + NAME + "}:holders";
    queue = test.prefix() + "{b:" + NAME + "}:queue-order";
    waiters = test.prefix() + "{b:" + NAME + "}:queue-leases";
    state = test.prefix() + "{b:" + NAME + "}:state";
  }

  @Test
  void grantsUpToTheLimitThenRejectsWhenItMayNotQueue() {
    PermitSpec two = new PermitSpec(NAME, 2, 5_000);
    long before = test.serverMillis();
    assertThat(a.store().permits().acquire(two, 1, false)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(two, 2, false)).isEqualTo(Grant.GRANTED);
    long after = test.serverMillis();

    assertThat(a.store().permits().acquire(two, 3, false)).isEqualTo(Grant.REJECTED);

    assertThat(redis.type(holders)).isEqualTo("zset");
    List<Tuple> held = redis.zrangeWithScores(holders, 0, -1);
    assertThat(held)
        .extracting(Tuple::getElement)
        .containsExactlyInAnyOrder(a.member(1), b.member(2));
    // Scores are lease expiries on the server's clock: between the TIME read before and after.
    assertThat(held)
        .allSatisfy(t -> assertThat((long) t.getScore()).isBetween(before + 5_000, after + 5_000));
    assertThat(redis.exists(queue)).isFalse();
    assertThat(redis.exists(waiters)).isFalse();
    // keep_alive sets at least the lease and at most twice it, so later calls only read the TTL.
    assertThat(redis.pttl(holders)).isBetween(4_000L, 10_000L);
  }

  @Test
  void queuesWhenItMayAndHandsOverInFifoOrderWakingExactlyTheHead() {
    assertThat(a.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(a.store().permits().acquire(ONE, 3, true)).isEqualTo(Grant.QUEUED);
    assertThat(b.store().permits().acquire(ONE, 4, true)).isEqualTo(Grant.QUEUED);

    // the queue by arrival, the waiters by lease expiry, each one's mode and secret in the state
    assertThat(redis.type(queue)).isEqualTo("zset");
    assertThat(redis.zrange(queue, 0, -1)).containsExactly(b.member(2), a.member(3), b.member(4));
    assertThat(redis.type(waiters)).isEqualTo("zset");
    assertThat(redis.zrange(waiters, 0, -1))
        .containsExactlyInAnyOrder(b.member(2), a.member(3), b.member(4));
    for (String member : List.of(b.member(2), a.member(3), b.member(4))) {
      assertThat(entry(member)).matches("P:[0-9a-f]{32}");
    }
    test.assertEveryKeyExpires();

    a.store().permits().release(ONE, 1);
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(2, 0));
    assertThat(a.wakesSoFar(redis)).isEmpty();
    assertThat(redis.zrange(holders, 0, -1)).containsExactly(b.member(2));
    assertThat(redis.zrange(queue, 0, -1)).containsExactly(a.member(3), b.member(4));
    assertThat(redis.zrange(waiters, 0, -1)).containsExactlyInAnyOrder(a.member(3), b.member(4));
    assertThat(entry(b.member(2))).isNull();

    b.store().permits().release(ONE, 2);
    assertThat(a.wakesSoFar(redis)).containsExactly(new Wake(3, 0));
    assertThat(b.wakesSoFar(redis)).isEmpty();

    a.store().permits().release(ONE, 3);
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(4, 0));
    assertThat(a.wakesSoFar(redis)).isEmpty();

    b.store().permits().release(ONE, 4);
    assertThat(a.wakesSoFar(redis)).isEmpty();
    assertThat(b.wakesSoFar(redis)).isEmpty();
    assertThat(test.keyNames()).isEmpty();
  }

  @Test
  void aNewcomerQueuesBehindWaitersEvenWhenAPermitIsFree() {
    PermitSpec two = new PermitSpec(NAME, 2, 10_000);
    assertThat(a.store().permits().acquire(two, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(a.store().permits().acquire(two, 2, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(two, 3, true)).isEqualTo(Grant.QUEUED);

    a.store().permits().release(two, 1);

    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(3, 0));
    assertThat(a.store().permits().acquire(two, 4, false)).isEqualTo(Grant.REJECTED);
    assertThat(redis.zrange(holders, 0, -1)).containsExactlyInAnyOrder(a.member(2), b.member(3));
  }

  @Test
  void eachHolderHasItsGrantTimeFromGrantOrHandOverUntilItIsReleased() throws InterruptedException {
    PermitSpec two = new PermitSpec(NAME, 2, 10_000);
    long before = test.serverMicros();
    assertThat(a.store().permits().acquire(two, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(two, 2, true)).isEqualTo(Grant.GRANTED);
    assertThat(a.store().permits().acquire(two, 3, true)).isEqualTo(Grant.QUEUED);
    long after = test.serverMicros();

    assertThat(redis.type(state)).isEqualTo("hash");
    assertThat(redis.hgetAll(state))
        .containsOnlyKeys("since:" + a.member(1), "since:" + b.member(2), "queued:" + a.member(3))
        .allSatisfy(
            (field, value) -> {
              if (field.startsWith("since:")) {
                assertThat(Long.parseLong(value)).isBetween(before, after);
              }
            });
    String secondSince = redis.hget(state, "since:" + b.member(2));
    test.assertEveryKeyExpires();

    // a re-sent acquire of a holder only sets its lease again
    assertThat(b.store().permits().acquire(two, 2, true)).isEqualTo(Grant.GRANTED);
    assertThat(redis.hget(state, "since:" + b.member(2))).isEqualTo(secondSince);

    Thread.sleep(5); // so that the hand-over's time lies after the waiter's arrival
    long beforeRelease = test.serverMicros();
    assertThat(a.store().permits().release(two, 1)).isTrue();
    long afterRelease = test.serverMicros();
    assertThat(redis.hgetAll(state))
        .containsOnlyKeys("since:" + b.member(2), "since:" + a.member(3));
    assertThat(Long.parseLong(redis.hget(state, "since:" + a.member(3))))
        .as("a handed-over permit's time is the hand-over's")
        .isBetween(beforeRelease, afterRelease);

    assertThat(b.store().permits().release(two, 2)).isTrue();
    assertThat(a.store().permits().release(two, 3)).isTrue();
    assertThat(test.keyNames()).as("the emptied state hash is gone").isEmpty();
  }

  @Test
  void aCancelThatGivesUpAGrantDropsItsGrantTime() {
    assertThat(a.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);
    a.store().permits().release(ONE, 1);
    assertThat(redis.hgetAll(state)).containsOnlyKeys("since:" + b.member(2));

    // what the store sends when the reply of an acquire or poll was lost: cancel, releasing a grant
    Object reply =
        Scripts.PERMIT_CANCEL.run(
            redis,
            test.keys().bulkhead(NAME).scriptKeys(),
            List.of(b.member(2), "1", test.prefix(), "1", "60000"));
    assertThat(reply).isEqualTo(-1L);
    assertThat(test.keyNames()).isEmpty();
  }

  @Test
  void pollSaysGrantedQueuedOrRejected() {
    assertThat(a.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);

    assertThat(a.store().permits().poll(ONE, 1)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().poll(ONE, 2)).isEqualTo(Grant.QUEUED);
    assertThat(b.store().permits().poll(ONE, 99)).isEqualTo(Grant.REJECTED);
    // The same request id from the other JVM is another member.
    assertThat(a.store().permits().poll(ONE, 2)).isEqualTo(Grant.REJECTED);

    a.store().permits().release(ONE, 1);
    assertThat(b.store().permits().poll(ONE, 2)).isEqualTo(Grant.GRANTED);
    assertThat(a.store().permits().poll(ONE, 1)).isEqualTo(Grant.REJECTED);
  }

  @Test
  void cancelWithdrawsAQueuedRequest() {
    assertThat(a.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(b.store().permits().acquire(ONE, 3, true)).isEqualTo(Grant.QUEUED);

    assertThat(b.store().permits().cancel(ONE, 2)).isEqualTo(Grant.REJECTED);

    assertThat(redis.zrange(queue, 0, -1)).containsExactly(b.member(3));
    assertThat(redis.zrange(waiters, 0, -1)).containsExactly(b.member(3));
    assertThat(entry(b.member(2))).isNull();
    assertThat(b.store().permits().poll(ONE, 2)).isEqualTo(Grant.REJECTED);

    a.store().permits().release(ONE, 1);
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(3, 0));
    assertThat(redis.zrange(holders, 0, -1)).containsExactly(b.member(3));
  }

  @Test
  void cancelReportsGrantedWhenTheHandOverWonTheRace() {
    assertThat(a.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);

    a.store().permits().release(ONE, 1); // the hand-over happens before the waiter gives up
    assertThat(b.store().permits().cancel(ONE, 2)).isEqualTo(Grant.GRANTED);

    assertThat(redis.zrange(holders, 0, -1)).containsExactly(b.member(2));
    b.store().permits().release(ONE, 2);
    assertThat(test.keyNames()).isEmpty();
  }

  @Test
  void anExpiredHolderIsReclaimedByTheNextAcquire() throws InterruptedException {
    PermitSpec shortLease = new PermitSpec(NAME, 1, 200);
    assertThat(a.store().permits().acquire(shortLease, 1, false)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(shortLease, 2, false)).isEqualTo(Grant.REJECTED);

    Thread.sleep(300); // past the 200 ms lease, never renewed: the holder's JVM "died"

    assertThat(b.store().permits().acquire(shortLease, 3, false)).isEqualTo(Grant.GRANTED);
    assertThat(redis.zrange(holders, 0, -1)).containsExactly(b.member(3));
    assertThat(redis.hgetAll(state))
        .as("the reclaimed holder's grant time goes with it")
        .containsOnlyKeys("since:" + b.member(3));
  }

  @Test
  void anExpiredHolderIsReclaimedByAPollThatHandsItToTheQueue() throws InterruptedException {
    PermitSpec shortLease = new PermitSpec(NAME, 1, 200);
    assertThat(a.store().permits().acquire(shortLease, 1, false)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);

    Thread.sleep(300);

    assertThat(b.store().permits().poll(ONE, 2)).isEqualTo(Grant.GRANTED);
    assertThat(redis.zrange(holders, 0, -1)).containsExactly(b.member(2));
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(2, 0));
    assertThat(a.wakesSoFar(redis)).isEmpty();
  }

  @Test
  void aQueuedRequestWhoseLeaseRanOutIsSkippedAtHandOver() throws InterruptedException {
    PermitSpec shortLease = new PermitSpec(NAME, 1, 200);
    assertThat(a.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(shortLease, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(a.store().permits().acquire(ONE, 3, true)).isEqualTo(Grant.QUEUED);

    Thread.sleep(300); // b's JVM "died": its queued request is no longer renewed

    a.store().permits().release(ONE, 1);

    assertThat(a.wakesSoFar(redis)).containsExactly(new Wake(3, 0));
    assertThat(b.wakesSoFar(redis)).isEmpty();
    assertThat(redis.zrange(holders, 0, -1)).containsExactly(a.member(3));
    assertThat(redis.exists(queue)).isFalse();
    assertThat(redis.exists(waiters)).isFalse();
  }

  @Test
  void renewExtendsHeldAndQueuedLeasesAndReportsLostOnes() throws InterruptedException {
    PermitSpec second = new PermitSpec(NAME, 1, 1_000);
    assertThat(a.store().permits().acquire(second, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(second, 2, true)).isEqualTo(Grant.QUEUED);
    long heldBefore = redis.zscore(holders, a.member(1)).longValue();
    long queuedBefore = queuedExpiry(b.member(2));
    String since = redis.hget(state, "since:" + a.member(1));

    Thread.sleep(20);
    assertThat(a.store().renew(List.of(lease(1, 10_000), lease(77, 10_000))))
        .containsExactly(lease(77, 10_000));
    assertThat(b.store().renew(List.of(lease(2, 10_000)))).isEmpty();

    assertThat(redis.zscore(holders, a.member(1)).longValue()).isGreaterThan(heldBefore + 9_000);
    assertThat(queuedExpiry(b.member(2))).isGreaterThan(queuedBefore + 9_000);
    // renewal keeps the entry's wake-up secret
    assertThat(entry(b.member(2))).matches("P:[0-9a-f]{32}");
    assertThat(redis.pttl(holders)).isGreaterThan(9_000);
    assertThat(redis.pttl(queue)).isGreaterThan(9_000);
    assertThat(redis.pttl(waiters)).isGreaterThan(9_000);
    // the grant time stays, and lives as long as the renewed lease
    assertThat(redis.hget(state, "since:" + a.member(1))).isEqualTo(since);
    assertThat(redis.pttl(state)).isGreaterThan(9_000);

    // A released permit is no longer known; renewing it must not bring it back.
    b.store().permits().cancel(second, 2);
    a.store().permits().release(second, 1);
    assertThat(a.store().renew(List.of(lease(1, 10_000)))).containsExactly(lease(1, 10_000));
    assertThat(b.store().renew(List.of(lease(2, 10_000)))).containsExactly(lease(2, 10_000));
    assertThat(test.keyNames()).isEmpty();
  }

  @Test
  void renewOfMoreLeasesThanOneScriptCallTakesReportsExactlyTheLostOnes() {
    int count = 600; // more than two renewal chunks
    // granted for 30 s, renewed for 120 s: only the renewal puts an expiry past 30 s, and no
    // lease runs out while the 600 acquires are made, however slow the machine
    PermitSpec wide = new PermitSpec(NAME, count, 30_000);
    List<Lease> leases = new ArrayList<>();
    List<Lease> unknown = new ArrayList<>();
    for (long request = 1; request <= count; request++) {
      assertThat(a.store().permits().acquire(wide, request, false)).isEqualTo(Grant.GRANTED);
      leases.add(lease(request, 120_000));
      if (request % 97 == 0) {
        Lease lost = lease(100_000 + request, 120_000);
        leases.add(lost);
        unknown.add(lost);
      }
    }
    long before = test.serverMillis();

    assertThat(a.store().renew(leases)).containsExactlyInAnyOrderElementsOf(unknown);

    assertThat(redis.zrangeWithScores(holders, 0, -1))
        .hasSize(count)
        .allSatisfy(t -> assertThat((long) t.getScore()).isGreaterThanOrEqualTo(before + 120_000));
  }

  @Test
  void renewReportsAnExpiredLeaseAsLost() throws InterruptedException {
    PermitSpec shortLease = new PermitSpec(NAME, 1, 200);
    assertThat(a.store().permits().acquire(shortLease, 1, false)).isEqualTo(Grant.GRANTED);

    Thread.sleep(300);

    assertThat(a.store().renew(List.of(lease(1, 10_000)))).containsExactly(lease(1, 10_000));
    // The renewal did not resurrect the holder: a newcomer gets the permit.
    assertThat(b.store().permits().acquire(shortLease, 2, false)).isEqualTo(Grant.GRANTED);
  }

  @Test
  void everyKeyExpiresAndNothingIsLeftBehind() throws InterruptedException {
    PermitSpec spec = new PermitSpec(NAME, 1, 300);
    assertThat(a.store().permits().acquire(spec, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(spec, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(b.store().permits().acquire(spec, 3, true)).isEqualTo(Grant.QUEUED);
    assertThat(test.keyNames()).containsExactlyInAnyOrder(holders, queue, waiters, state);
    test.assertEveryKeyExpires();

    a.store().permits().release(spec, 1);
    test.assertEveryKeyExpires();
    assertThat(b.store().permits().cancel(spec, 3)).isEqualTo(Grant.REJECTED);
    test.assertEveryKeyExpires();
    b.store().permits().release(spec, 2);
    test.assertEveryKeyExpires();

    assertThat(test.keyNames()).isEmpty(); // emptied structures are gone at once
  }

  @Test
  void holdersThatDieLeaveNothingBehindOnceTheirLeasesPass() throws InterruptedException {
    PermitSpec spec = new PermitSpec(NAME, 1, 200);
    assertThat(a.store().permits().acquire(spec, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(spec, 2, true)).isEqualTo(Grant.QUEUED);
    test.assertEveryKeyExpires();

    Thread.sleep(500); // nobody renews, nobody releases; keys live at most twice the lease

    assertThat(test.keyNames()).isEmpty();
  }

  private Lease lease(long requestId, long leaseMillis) {
    return new Lease(Lease.Kind.PERMIT, NAME, "", requestId, leaseMillis);
  }

  private long queuedExpiry(String member) {
    return redis.zscore(waiters, member).longValue();
  }

  /** A queued member's mode and wake-up secret, kept in the bulkhead's state hash. */
  private String entry(String member) {
    return redis.hget(state, "queued:" + member);
  }
}
