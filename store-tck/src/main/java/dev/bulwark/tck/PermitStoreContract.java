package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The promises of {@link PermitStore}: at most {@code limit} live holders, a first-come,
 * first-served queue whose head a release hands its permit to (telling exactly that waiter's JVM),
 * poll, cancel (which keeps a permit handed over meanwhile), and reclaim of expired holders.
 */
public abstract class PermitStoreContract extends StoreContract {

  private static final String NAME = "tck-bulkhead";

  private static PermitSpec spec(int limit) {
    return new PermitSpec(NAME, limit, LONG_LEASE_MILLIS);
  }

  @Test
  public void grantsUpToTheLimitThenRejectsOrQueues() {
    PermitStore permits = jvm().permits();
    PermitSpec spec = spec(3);
    for (int i = 0; i < 3; i++) {
      assertThat(permits.acquire(spec, jvm().newRequestId(), false))
          .as("permit %s", i)
          .isEqualTo(Grant.GRANTED);
    }
    assertThat(permits.acquire(spec, jvm().newRequestId(), false)).isEqualTo(Grant.REJECTED);
    long queued = jvm().newRequestId();
    assertThat(permits.acquire(spec, queued, true)).isEqualTo(Grant.QUEUED);
    assertThat(permits.poll(spec, queued)).isEqualTo(Grant.QUEUED);
    // another name is another bulkhead
    PermitSpec other = new PermitSpec(NAME + "-other", 1, LONG_LEASE_MILLIS);
    assertThat(permits.acquire(other, jvm().newRequestId(), false)).isEqualTo(Grant.GRANTED);
    assertThat(jvm().handOvers()).isEmpty();
  }

  @Test
  public void aReleaseHandsItsPermitToTheOldestWaiterAndTellsExactlyIt() {
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = spec(2);
    long holder1 = granted(jvm, spec);
    long holder2 = granted(jvm, spec);
    long first = queued(jvm, spec);
    long second = queued(jvm, spec);
    long third = queued(jvm, spec);

    permits.release(spec, holder1);
    assertThat(jvm.handedOverRequests()).containsExactly(first);
    assertThat(permits.poll(spec, first)).isEqualTo(Grant.GRANTED);
    assertThat(permits.poll(spec, second)).isEqualTo(Grant.QUEUED);
    // the permit went to the waiter, not to whoever asks next
    assertThat(permits.acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.REJECTED);
    long newcomer = queued(jvm, spec);

    permits.release(spec, holder2);
    assertThat(jvm.handedOverRequests()).containsExactly(first, second);
    permits.release(spec, first);
    permits.release(spec, second);
    assertThat(jvm.handedOverRequests()).containsExactly(first, second, third, newcomer);
    permits.release(spec, third);
    assertThat(jvm.handedOverRequests()).hasSize(4);
    // one of two permits is held (by the newcomer)
    long last = granted(jvm, spec);
    assertThat(permits.acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.REJECTED);
    permits.release(spec, last);
    permits.release(spec, newcomer);
    assertThat(jvm.handedOverRequests()).hasSize(4);
  }

  @Test
  public void theQueueIsFirstComeFirstServedAcrossJvmsAndEachJvmHearsOnlyOfItsOwnRequests() {
    StoreJvm a = jvm();
    StoreJvm b = anotherJvm();
    PermitSpec spec = spec(1);
    // both JVMs count request ids from 1: the store must tell b's 1 from a's 1
    long aHolder = granted(a, spec);
    long bFirst = queued(b, spec);
    long aSecond = queued(a, spec);
    long bThird = queued(b, spec);
    assertThat(bFirst).isEqualTo(aHolder);

    a.permits().release(spec, aHolder);
    assertThat(b.handedOverRequests()).containsExactly(bFirst);
    assertThat(a.handedOverRequests()).isEmpty();
    assertThat(b.permits().poll(spec, bFirst)).isEqualTo(Grant.GRANTED);
    assertThat(a.permits().poll(spec, aSecond)).isEqualTo(Grant.QUEUED);

    b.permits().release(spec, bFirst);
    assertThat(a.handedOverRequests()).containsExactly(aSecond);
    a.permits().release(spec, aSecond);
    assertThat(b.handedOverRequests()).containsExactly(bFirst, bThird);
    assertThat(a.handedOverRequests()).containsExactly(aSecond);
    b.permits().release(spec, bThird);
    assertThat(a.permits().acquire(spec, a.newRequestId(), false)).isEqualTo(Grant.GRANTED);
  }

  @Test
  public void theSameRequestIdInTwoJvmsIsTwoRequests() {
    StoreJvm a = jvm();
    StoreJvm b = anotherJvm();
    PermitSpec spec = spec(1);
    long aHolder = granted(a, spec);
    long bWaiter = queued(b, spec);
    assertThat(bWaiter).isEqualTo(aHolder);

    b.permits().release(spec, bWaiter); // b's request is queued, a's holds
    assertThat(b.permits().poll(spec, bWaiter)).isEqualTo(Grant.QUEUED);
    assertThat(b.permits().cancel(spec, bWaiter)).isEqualTo(Grant.REJECTED);
    assertThat(b.permits().acquire(spec, b.newRequestId(), false))
        .as("a's request still holds the permit")
        .isEqualTo(Grant.REJECTED);
    a.permits().release(spec, aHolder);
    assertThat(b.handOvers()).isEmpty();
    assertThat(b.permits().acquire(spec, b.newRequestId(), false)).isEqualTo(Grant.GRANTED);
  }

  @Test
  public void pollReportsAQueuedRequestAsQueuedUntilItIsHandedThePermit() {
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = spec(1);
    long holder = granted(jvm, spec);
    long waiter = queued(jvm, spec);
    assertThat(permits.poll(spec, waiter)).isEqualTo(Grant.QUEUED);
    assertThat(permits.poll(spec, waiter)).isEqualTo(Grant.QUEUED);

    permits.release(spec, holder);
    assertThat(permits.poll(spec, waiter)).isEqualTo(Grant.GRANTED);
    assertThat(permits.poll(spec, waiter)).isEqualTo(Grant.GRANTED);
    // polling takes nothing more: the waiter holds the only permit
    assertThat(permits.acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.REJECTED);
    permits.release(spec, waiter);
    assertThat(permits.acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.GRANTED);
  }

  @Test
  public void aCancelledRequestLeavesTheQueueAndIsNeverHandedAPermit() {
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = spec(1);
    long holder = granted(jvm, spec);
    long cancelled = queued(jvm, spec);
    long next = queued(jvm, spec);

    assertThat(permits.cancel(spec, cancelled)).isEqualTo(Grant.REJECTED);
    permits.release(spec, holder);
    assertThat(jvm.handedOverRequests()).containsExactly(next);
    permits.release(spec, next);
    assertThat(jvm.handedOverRequests()).containsExactly(next);
    assertThat(permits.acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.GRANTED);
  }

  @Test
  public void aCancelAfterTheHandOverReturnsGrantedAndTheCallerHoldsThePermit() {
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = spec(1);
    long holder = granted(jvm, spec);
    long waiter = queued(jvm, spec);
    permits.release(spec, holder);

    assertThat(permits.cancel(spec, waiter)).isEqualTo(Grant.GRANTED);
    assertThat(permits.acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.REJECTED);
    permits.release(spec, waiter);
    assertThat(permits.acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.GRANTED);
  }

  @Test
  public void aCancelRacingAReleaseEitherWithdrawsTheRequestOrKeepsThePermitNeverBothNorNeither()
      throws InterruptedException {
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = spec(1);
    for (int round = 0; round < 25; round++) {
      long holder = granted(jvm, spec);
      long waiter = queued(jvm, spec);
      Grant[] cancelled = new Grant[1];
      CyclicBarrier together = new CyclicBarrier(2);
      Concurrently.run(
          2,
          TIMEOUT,
          index -> {
            together.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (index == 0) {
              permits.release(spec, holder);
            } else {
              cancelled[0] = permits.cancel(spec, waiter);
            }
          });
      boolean toldOfHandOver = jvm.handedOverRequests().contains(waiter);
      long probe = jvm.newRequestId();
      if (cancelled[0].isGranted()) {
        assertThat(toldOfHandOver).as("round %s: a kept permit was handed over", round).isTrue();
        assertThat(permits.acquire(spec, probe, false))
            .as("round %s", round)
            .isEqualTo(Grant.REJECTED);
        permits.release(spec, waiter);
      } else {
        assertThat(cancelled[0]).as("round %s", round).isEqualTo(Grant.REJECTED);
        assertThat(toldOfHandOver)
            .as("round %s: a withdrawn request was told of a hand-over", round)
            .isFalse();
        assertThat(permits.acquire(spec, probe, false))
            .as("round %s: the permit is free", round)
            .isEqualTo(Grant.GRANTED);
        permits.release(spec, probe);
      }
    }
  }

  @Test
  public void aReleaseOfAPermitNotHeldChangesNothing() {
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = spec(1);
    long holder = granted(jvm, spec);
    long waiter = queued(jvm, spec);

    permits.release(spec, 999_999);
    permits.release(spec, waiter); // queued, not held
    assertThat(permits.poll(spec, waiter)).isEqualTo(Grant.QUEUED);
    assertThat(jvm.handOvers()).isEmpty();
    assertThat(permits.acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.REJECTED);

    permits.release(spec, holder);
    permits.release(spec, holder); // twice
    assertThat(jvm.handedOverRequests()).containsExactly(waiter);
    assertThat(permits.acquire(spec, jvm.newRequestId(), false))
        .as("the waiter holds the only permit; the second release gave nothing back")
        .isEqualTo(Grant.REJECTED);
  }

  @Test
  public void theLimitHoldsUnderContentionAndEveryWaiterIsServed() throws InterruptedException {
    StoreJvm jvm = jvm();
    assertLimitHolds(List.of(jvm, jvm, jvm, jvm, jvm, jvm), 2);
  }

  @Test
  public void theLimitHoldsUnderContentionFromTwoJvms() throws InterruptedException {
    StoreJvm a = jvm();
    StoreJvm b = anotherJvm();
    assertLimitHolds(List.of(a, b, a, b, a, b), 2);
  }

  @Test
  public void anExpiredHolderIsReclaimed() throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = new PermitSpec(NAME, 1, lease.toMillis());
    long start = System.nanoTime();
    long holder = jvm.newRequestId();
    Grant held = permits.acquire(spec, holder, false);
    Grant whileHeld = permits.acquire(spec, jvm.newRequestId(), false);
    assumeNoStallSince(start, lease);
    assertThat(held).isEqualTo(Grant.GRANTED);
    assertThat(whileHeld).isEqualTo(Grant.REJECTED);

    letLeasePass(lease);
    long restart = System.nanoTime();
    Grant next = permits.acquire(spec, jvm.newRequestId(), false);
    Grant afterNext = permits.acquire(spec, jvm.newRequestId(), false);
    // the expired holder's late release must not free the permit its successor holds
    permits.release(spec, holder);
    Grant afterLateRelease = permits.acquire(spec, jvm.newRequestId(), false);
    assumeNoStallSince(restart, lease);
    assertThat(next).isEqualTo(Grant.GRANTED);
    assertThat(afterNext).isEqualTo(Grant.REJECTED);
    assertThat(afterLateRelease).isEqualTo(Grant.REJECTED);
    assertThat(jvm.store().renew(List.of(permitLease(spec, holder))))
        .containsExactly(permitLease(spec, holder));
  }

  @Test
  public void anExpiredHoldersPermitGoesToTheOldestLiveWaiter() throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = new PermitSpec(NAME, 1, lease.toMillis());
    long start = System.nanoTime();
    long waiter = holderAndWaiter(jvm, spec, lease);
    try (LeaseKeeper keeper =
        new LeaseKeeper(jvm.store(), List.of(permitLease(spec, waiter)), lease, start)) {
      letLeasePass(lease);
      // a waiter whose wake-up cannot come (the holder's JVM died) learns of it by polling
      Grant polled = permits.poll(spec, waiter);
      Grant newcomer = permits.acquire(spec, jvm.newRequestId(), false);
      assumeRenewedInTime(keeper, lease);
      assertThat(polled).isEqualTo(Grant.GRANTED);
      assertThat(newcomer).isEqualTo(Grant.REJECTED);
      assertThat(keeper.lost()).isEmpty();
    }
  }

  @Test
  public void aNewcomerDoesNotOvertakeAWaiterLongAfterTheHolderExpired()
      throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    PermitStore permits = jvm.permits();
    PermitSpec spec = new PermitSpec(NAME, 1, lease.toMillis());
    long start = System.nanoTime();
    long waiter = holderAndWaiter(jvm, spec, lease);
    try (LeaseKeeper keeper =
        new LeaseKeeper(jvm.store(), List.of(permitLease(spec, waiter)), lease, start)) {
      // nobody polls meanwhile: the store alone has to keep the waiter first
      fixture().letPass(lease.multipliedBy(3));
      Grant newcomer = permits.acquire(spec, jvm.newRequestId(), false);
      Grant polled = permits.poll(spec, waiter);
      assumeRenewedInTime(keeper, lease);
      assertThat(newcomer).as("a newcomer while a live waiter is queued").isEqualTo(Grant.REJECTED);
      assertThat(polled).isEqualTo(Grant.GRANTED);
    }
  }

  /** A holder on a short lease that is not renewed, and a waiter queued behind it. */
  private static long holderAndWaiter(StoreJvm jvm, PermitSpec spec, Duration lease) {
    long start = System.nanoTime();
    Grant held = jvm.permits().acquire(spec, jvm.newRequestId(), false);
    long waiter = jvm.newRequestId();
    Grant queued = jvm.permits().acquire(spec, waiter, true);
    assumeNoStallSince(start, lease);
    assertThat(held).isEqualTo(Grant.GRANTED);
    assertThat(queued).isEqualTo(Grant.QUEUED);
    return waiter;
  }

  private void assertLimitHolds(List<StoreJvm> threads, int limit) throws InterruptedException {
    PermitSpec spec = spec(limit);
    int rounds = 12;
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    AtomicInteger served = new AtomicInteger();
    AtomicInteger waited = new AtomicInteger();
    Concurrently.run(
        threads.size(),
        TIMEOUT.multipliedBy(3),
        index -> {
          StoreJvm jvm = threads.get(index);
          PermitStore permits = jvm.permits();
          for (int round = 0; round < rounds; round++) {
            long request = jvm.newRequestId();
            Grant grant = permits.acquire(spec, request, true);
            if (!grant.isGranted()) {
              assertThat(grant).isEqualTo(Grant.QUEUED);
              waited.incrementAndGet();
              awaitGrant(jvm, request, () -> permits.poll(spec, request));
            }
            int now = inside.incrementAndGet();
            mostInside.accumulateAndGet(now, Math::max);
            Thread.sleep(1);
            inside.decrementAndGet();
            served.incrementAndGet();
            permits.release(spec, request);
          }
        });
    assertThat(mostInside.get()).as("most holders at once").isBetween(1, limit);
    assertThat(served.get()).isEqualTo(threads.size() * rounds);
    assertThat(waited.get()).as("requests that queued").isPositive();
    assertThat(jvmsOf(threads))
        .allSatisfy(
            jvm ->
                assertThat(jvm.permits().acquire(spec, jvm.newRequestId(), false))
                    .isEqualTo(Grant.GRANTED));
  }

  private static List<StoreJvm> jvmsOf(List<StoreJvm> threads) {
    List<StoreJvm> distinct = new ArrayList<>();
    for (StoreJvm jvm : threads) {
      if (!distinct.contains(jvm)) {
        distinct.add(jvm);
      }
    }
    return distinct;
  }

  static Lease permitLease(PermitSpec spec, long requestId) {
    return new Lease(Lease.Kind.PERMIT, spec.name(), "", requestId, spec.leaseMillis());
  }

  private static long granted(StoreJvm jvm, PermitSpec spec) {
    long request = jvm.newRequestId();
    assertThat(jvm.permits().acquire(spec, request, false))
        .as("request %s", request)
        .isEqualTo(Grant.GRANTED);
    return request;
  }

  private static long queued(StoreJvm jvm, PermitSpec spec) {
    long request = jvm.newRequestId();
    assertThat(jvm.permits().acquire(spec, request, true))
        .as("request %s", request)
        .isEqualTo(Grant.QUEUED);
    return request;
  }
}
