package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The promises of {@link LockStore}: per key many readers or one writer; requests queued first
 * come, first served, so a queued writer holds back later readers; hand-over on release (and on the
 * withdrawal of a writer at the head) with the right fencing token; fencing tokens positive and
 * strictly increasing per key, readers carrying the token of the last write; cancel racing a grant;
 * reclaim of expired holders.
 */
public abstract class LockStoreContract extends StoreContract {

  private static final String KEY = "account-42";

  private static final LockSpec SPEC = new LockSpec("tck-lock", LONG_LEASE_MILLIS);

  @Test
  public void manyReadersOrOneWriterPerKey() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    long reader1 = granted(jvm, KEY, LockMode.READ).request();
    long reader2 = granted(jvm, KEY, LockMode.READ).request();
    assertThat(locks.acquire(SPEC, KEY, LockMode.WRITE, jvm.newRequestId(), false))
        .isEqualTo(Grant.REJECTED);
    // another key is another lock
    Held other = granted(jvm, "account-43", LockMode.WRITE);
    assertThat(other.token()).isPositive();

    locks.release(SPEC, KEY, reader1);
    assertThat(locks.acquire(SPEC, KEY, LockMode.WRITE, jvm.newRequestId(), false))
        .isEqualTo(Grant.REJECTED);
    locks.release(SPEC, KEY, reader2);
    Held writer = granted(jvm, KEY, LockMode.WRITE);
    assertThat(writer.token()).isPositive();
    assertThat(locks.acquire(SPEC, KEY, LockMode.READ, jvm.newRequestId(), false))
        .isEqualTo(Grant.REJECTED);
    assertThat(locks.acquire(SPEC, KEY, LockMode.WRITE, jvm.newRequestId(), false))
        .isEqualTo(Grant.REJECTED);
    locks.release(SPEC, KEY, writer.request());
    assertThat(locks.acquire(SPEC, KEY, LockMode.READ, jvm.newRequestId(), false).isGranted())
        .isTrue();
    assertThat(jvm.handOvers()).isEmpty();
  }

  @Test
  public void aQueuedWriterHoldsBackLaterReadersAndTheQueueIsServedInOrderWithTheRightTokens() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    Held writer1 = granted(jvm, KEY, LockMode.WRITE);
    long reader1 = queued(jvm, KEY, LockMode.READ);
    long writer2 = queued(jvm, KEY, LockMode.WRITE);
    long reader2 = queued(jvm, KEY, LockMode.READ);
    long reader3 = queued(jvm, KEY, LockMode.READ);

    locks.release(SPEC, KEY, writer1.request());
    // the reader at the head goes in; the writer behind it waits for it, the readers behind the
    // writer wait for the writer although a reader holds the lock
    assertThat(jvm.handOvers()).containsExactly(new HandOver(reader1, writer1.token()));
    assertThat(locks.poll(SPEC, KEY, writer2)).isEqualTo(Grant.QUEUED);
    assertThat(locks.poll(SPEC, KEY, reader2)).isEqualTo(Grant.QUEUED);
    long lateReader = jvm.newRequestId();
    assertThat(locks.acquire(SPEC, KEY, LockMode.READ, lateReader, true)).isEqualTo(Grant.QUEUED);

    locks.release(SPEC, KEY, reader1);
    List<HandOver> afterReader = jvm.handOvers();
    assertThat(afterReader).hasSize(2);
    HandOver write2 = afterReader.get(1);
    assertThat(write2.requestId()).isEqualTo(writer2);
    assertThat(write2.fencingToken()).isGreaterThan(writer1.token());
    assertThat(locks.poll(SPEC, KEY, writer2)).isEqualTo(Grant.granted(write2.fencingToken()));

    locks.release(SPEC, KEY, writer2);
    // the readers behind it go in together, with the token of the last write
    assertThat(jvm.handOvers())
        .containsExactly(
            new HandOver(reader1, writer1.token()),
            write2,
            new HandOver(reader2, write2.fencingToken()),
            new HandOver(reader3, write2.fencingToken()),
            new HandOver(lateReader, write2.fencingToken()));
    assertThat(locks.poll(SPEC, KEY, reader3)).isEqualTo(Grant.granted(write2.fencingToken()));
  }

  @Test
  public void theQueueIsFirstComeFirstServedAcrossJvms() {
    StoreJvm a = jvm();
    StoreJvm b = anotherJvm();
    // both JVMs count request ids from 1: the store must tell b's 1 from a's 1
    Held aWriter = granted(a, KEY, LockMode.WRITE);
    long bWriter = queued(b, KEY, LockMode.WRITE);
    long aReader = queued(a, KEY, LockMode.READ);
    long bReader = queued(b, KEY, LockMode.READ);
    assertThat(bWriter).isEqualTo(aWriter.request());

    a.locks().release(SPEC, KEY, aWriter.request());
    List<HandOver> toB = b.handOvers();
    assertThat(toB).extracting(HandOver::requestId).containsExactly(bWriter);
    assertThat(toB.get(0).fencingToken()).isGreaterThan(aWriter.token());
    assertThat(a.handOvers()).isEmpty();

    b.locks().release(SPEC, KEY, bWriter);
    long token = toB.get(0).fencingToken();
    assertThat(a.handOvers()).containsExactly(new HandOver(aReader, token));
    assertThat(b.handOvers()).containsExactly(toB.get(0), new HandOver(bReader, token));
  }

  @Test
  public void theSameRequestIdInTwoJvmsIsTwoRequests() {
    StoreJvm a = jvm();
    StoreJvm b = anotherJvm();
    Held aWriter = granted(a, KEY, LockMode.WRITE);
    long bReader = queued(b, KEY, LockMode.READ);
    assertThat(bReader).isEqualTo(aWriter.request());

    b.locks().release(SPEC, KEY, bReader); // b's request is queued, a's holds
    assertThat(b.locks().poll(SPEC, KEY, bReader)).isEqualTo(Grant.QUEUED);
    assertThat(b.locks().cancel(SPEC, KEY, bReader)).isEqualTo(Grant.REJECTED);
    assertThat(b.locks().acquire(SPEC, KEY, LockMode.READ, b.newRequestId(), false))
        .as("a's writer still holds the lock")
        .isEqualTo(Grant.REJECTED);
    a.locks().release(SPEC, KEY, aWriter.request());
    assertThat(b.handOvers()).isEmpty();
    assertThat(b.locks().acquire(SPEC, KEY, LockMode.WRITE, b.newRequestId(), false).fencingToken())
        .isGreaterThan(aWriter.token());
  }

  @Test
  public void fencingTokensArePositiveAndGrowWithEveryWriteGrantOfAKey() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Held writer = granted(jvm, KEY, LockMode.WRITE);
      tokens.add(writer.token());
      locks.release(SPEC, KEY, writer.request());
      // writes of another key in between do not matter to this key's order
      Held elsewhere = granted(jvm, "elsewhere-" + i, LockMode.WRITE);
      assertThat(elsewhere.token()).isPositive();
      locks.release(SPEC, "elsewhere-" + i, elsewhere.request());
    }
    assertThat(tokens.get(0)).isPositive();
    assertThat(tokens).isSorted().doesNotHaveDuplicates();
    // a reader of an idle key may not know its last write, but never lies ahead of the next one
    Held reader = granted(jvm, KEY, LockMode.READ);
    locks.release(SPEC, KEY, reader.request());
    assertThat(reader.token()).isLessThan(granted(jvm, KEY, LockMode.WRITE).token());
  }

  @Test
  public void aReaderOfAKeyNeverWrittenGetsAPositiveTokenBelowTheFirstWrite() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    Held reader = granted(jvm, KEY, LockMode.READ);
    locks.release(SPEC, KEY, reader.request());
    Held writer = granted(jvm, KEY, LockMode.WRITE);
    assertThat(reader.token()).isPositive().isLessThan(writer.token());
  }

  @Test
  public void readersCarryTheTokenOfTheKeysLastWriteEvenAfterWritesOfOtherKeys() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    Held writer = granted(jvm, KEY, LockMode.WRITE);
    long queuedReader = queued(jvm, KEY, LockMode.READ);
    Held elsewhere = granted(jvm, "elsewhere", LockMode.WRITE);
    assertThat(elsewhere.token()).isPositive();

    locks.release(SPEC, KEY, writer.request());
    assertThat(jvm.handOvers()).containsExactly(new HandOver(queuedReader, writer.token()));
    assertThat(locks.poll(SPEC, KEY, queuedReader)).isEqualTo(Grant.granted(writer.token()));
    Held reader = granted(jvm, KEY, LockMode.READ);
    assertThat(reader.token()).isEqualTo(writer.token());

    locks.release(SPEC, KEY, queuedReader);
    locks.release(SPEC, KEY, reader.request());
    Held next = granted(jvm, KEY, LockMode.WRITE);
    assertThat(next.token()).isGreaterThan(writer.token());
  }

  @Test
  public void fencingTokensKeepGrowingAfterAKeyWentIdleAndItsStateExpired()
      throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    LockSpec spec = new LockSpec(SPEC.name(), lease.toMillis());
    long request = jvm.newRequestId();
    Grant first = jvm.locks().acquire(spec, KEY, LockMode.WRITE, request, false);
    jvm.locks().release(spec, KEY, request);
    // long enough for the store to drop everything of the idle key
    fixture().letPass(lease.multipliedBy(3));
    Grant second = jvm.locks().acquire(spec, KEY, LockMode.WRITE, jvm.newRequestId(), false);
    assertThat(first.isGranted()).isTrue();
    assertThat(second.isGranted()).isTrue();
    assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
  }

  @Test
  public void withdrawingTheWriterAtTheHeadLetsTheReadersBehindItIn() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    Held writer = granted(jvm, KEY, LockMode.WRITE);
    locks.release(SPEC, KEY, writer.request());
    Held reader = granted(jvm, KEY, LockMode.READ);
    long queuedWriter = queued(jvm, KEY, LockMode.WRITE);
    long queuedReader = queued(jvm, KEY, LockMode.READ);

    assertThat(locks.cancel(SPEC, KEY, queuedWriter)).isEqualTo(Grant.REJECTED);
    assertThat(jvm.handOvers()).containsExactly(new HandOver(queuedReader, writer.token()));
    locks.release(SPEC, KEY, reader.request());
    locks.release(SPEC, KEY, queuedReader);
    assertThat(jvm.handOvers()).hasSize(1);
    assertThat(locks.acquire(SPEC, KEY, LockMode.WRITE, jvm.newRequestId(), false).fencingToken())
        .isGreaterThan(writer.token());
  }

  @Test
  public void aCancelledRequestIsNeverHandedTheLock() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    Held writer = granted(jvm, KEY, LockMode.WRITE);
    long cancelled = queued(jvm, KEY, LockMode.WRITE);
    long next = queued(jvm, KEY, LockMode.WRITE);
    assertThat(locks.cancel(SPEC, KEY, cancelled)).isEqualTo(Grant.REJECTED);
    locks.release(SPEC, KEY, writer.request());
    assertThat(jvm.handedOverRequests()).containsExactly(next);
  }

  @Test
  public void aCancelAfterTheHandOverReturnsGrantedWithTheTokenAndTheCallerHoldsTheLock() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    Held writer = granted(jvm, KEY, LockMode.WRITE);
    long waiter = queued(jvm, KEY, LockMode.WRITE);
    locks.release(SPEC, KEY, writer.request());
    HandOver handOver = jvm.handOvers().get(0);

    Grant cancelled = locks.cancel(SPEC, KEY, waiter);
    assertThat(cancelled).isEqualTo(Grant.granted(handOver.fencingToken()));
    assertThat(cancelled.fencingToken()).isGreaterThan(writer.token());
    assertThat(locks.acquire(SPEC, KEY, LockMode.READ, jvm.newRequestId(), false))
        .isEqualTo(Grant.REJECTED);
    locks.release(SPEC, KEY, waiter);
    assertThat(locks.acquire(SPEC, KEY, LockMode.READ, jvm.newRequestId(), false).isGranted())
        .isTrue();
  }

  @Test
  public void aCancelRacingAReleaseEitherWithdrawsTheRequestOrKeepsTheLockNeverBothNorNeither()
      throws InterruptedException {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    for (int round = 0; round < 25; round++) {
      Held holder = granted(jvm, KEY, LockMode.WRITE);
      long waiter = queued(jvm, KEY, LockMode.WRITE);
      Grant[] cancelled = new Grant[1];
      CyclicBarrier together = new CyclicBarrier(2);
      Concurrently.run(
          2,
          TIMEOUT,
          index -> {
            together.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (index == 0) {
              locks.release(SPEC, KEY, holder.request());
            } else {
              cancelled[0] = locks.cancel(SPEC, KEY, waiter);
            }
          });
      List<HandOver> told = jvm.handOvers().stream().filter(h -> h.requestId() == waiter).toList();
      if (cancelled[0].isGranted()) {
        assertThat(told).as("round %s: the kept lock was handed over", round).hasSize(1);
        assertThat(cancelled[0].fencingToken())
            .isEqualTo(told.get(0).fencingToken())
            .isGreaterThan(holder.token());
        assertThat(locks.acquire(SPEC, KEY, LockMode.WRITE, jvm.newRequestId(), false))
            .isEqualTo(Grant.REJECTED);
        locks.release(SPEC, KEY, waiter);
      } else {
        assertThat(cancelled[0]).as("round %s", round).isEqualTo(Grant.REJECTED);
        assertThat(told)
            .as("round %s: a withdrawn request was told of a hand-over", round)
            .isEmpty();
      }
      Held probe = granted(jvm, KEY, LockMode.WRITE);
      locks.release(SPEC, KEY, probe.request());
    }
  }

  @Test
  public void aReleaseOfALockNotHeldChangesNothing() {
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    Held reader = granted(jvm, KEY, LockMode.READ);
    long writer = queued(jvm, KEY, LockMode.WRITE);

    locks.release(SPEC, KEY, 999_999);
    locks.release(SPEC, KEY, writer); // queued, not held
    locks.release(SPEC, "another-key", reader.request());
    assertThat(locks.poll(SPEC, KEY, writer)).isEqualTo(Grant.QUEUED);
    assertThat(jvm.handOvers()).isEmpty();
    assertThat(locks.acquire(SPEC, KEY, LockMode.WRITE, jvm.newRequestId(), false))
        .isEqualTo(Grant.REJECTED);

    locks.release(SPEC, KEY, reader.request());
    locks.release(SPEC, KEY, reader.request()); // twice
    assertThat(jvm.handedOverRequests()).containsExactly(writer);
    assertThat(locks.acquire(SPEC, KEY, LockMode.READ, jvm.newRequestId(), false))
        .as("the writer holds the lock; the second release took nothing from it")
        .isEqualTo(Grant.REJECTED);
  }

  @Test
  public void lockKeysAreDataAndDistinctKeysNeverShareALock() {
    StoreJvm jvm = jvm();
    List<String> keys =
        List.of("a", "a}", "{a}", "a:b", "a b", "ä", "", "x".repeat(1000), "a\nb", "a*", "A");
    List<Held> writers = new ArrayList<>();
    for (String key : keys) {
      writers.add(granted(jvm, key, LockMode.WRITE));
    }
    for (int i = 0; i < keys.size(); i++) {
      assertThat(jvm.locks().acquire(SPEC, keys.get(i), LockMode.READ, jvm.newRequestId(), false))
          .as("key %s", i)
          .isEqualTo(Grant.REJECTED);
      jvm.locks().release(SPEC, keys.get(i), writers.get(i).request());
    }
  }

  @Test
  public void oneWriterOrManyReadersUnderContentionWithTokensInGrantOrder()
      throws InterruptedException {
    StoreJvm jvm = jvm();
    assertExclusion(List.of(jvm, jvm, jvm, jvm, jvm, jvm));
  }

  @Test
  public void oneWriterOrManyReadersUnderContentionFromTwoJvms() throws InterruptedException {
    StoreJvm a = jvm();
    StoreJvm b = anotherJvm();
    assertExclusion(List.of(a, b, a, b, a, b));
  }

  @Test
  public void anExpiredHolderIsReclaimedAndItsLockGoesToTheOldestLiveWaiter()
      throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    LockSpec spec = new LockSpec(SPEC.name(), lease.toMillis());
    long start = System.nanoTime();
    Grant written = locks.acquire(spec, KEY, LockMode.WRITE, jvm.newRequestId(), false);
    long waiter = jvm.newRequestId();
    Grant queued = locks.acquire(spec, KEY, LockMode.WRITE, waiter, true);
    long readerRequest = jvm.newRequestId();
    Grant read = locks.acquire(spec, "other", LockMode.READ, readerRequest, false);
    assumeNoStallSince(start, lease);
    assertThat(written.outcome()).isEqualTo(Outcome.GRANTED);
    assertThat(queued).isEqualTo(Grant.QUEUED);
    assertThat(read.outcome()).isEqualTo(Outcome.GRANTED);
    Held writer = new Held(waiter - 1, written.fencingToken());
    Held reader = new Held(readerRequest, read.fencingToken());
    Lease waiterLease = new Lease(Lease.Kind.LOCK, spec.name(), KEY, waiter, lease.toMillis());
    try (LeaseKeeper keeper = new LeaseKeeper(jvm.store(), List.of(waiterLease), lease, start)) {
      letLeasePass(lease);
      // the waiter of a dead holder learns of its grant by polling
      Grant polled = locks.poll(spec, KEY, waiter);
      // the expired writer's late release must not free the lock its successor holds
      locks.release(spec, KEY, writer.request());
      Grant newcomer = locks.acquire(spec, KEY, LockMode.READ, jvm.newRequestId(), false);
      // an expired reader is reclaimed too
      Grant afterReader = locks.acquire(spec, "other", LockMode.WRITE, jvm.newRequestId(), false);
      assumeRenewedInTime(keeper, lease);
      assertThat(polled.outcome()).isEqualTo(Outcome.GRANTED);
      assertThat(polled.fencingToken()).isGreaterThan(writer.token());
      assertThat(newcomer).isEqualTo(Grant.REJECTED);
      assertThat(afterReader.outcome()).isEqualTo(Outcome.GRANTED);
      assertThat(keeper.lost()).isEmpty();
    }
    assertThat(
            jvm.store()
                .renew(
                    List.of(
                        lockLease(spec, KEY, writer.request()),
                        lockLease(spec, "other", reader.request()))))
        .hasSize(2);
  }

  @Test
  public void aNewcomerDoesNotOvertakeAWaiterLongAfterTheHolderExpired()
      throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    LockStore locks = jvm.locks();
    LockSpec spec = new LockSpec(SPEC.name(), lease.toMillis());
    long start = System.nanoTime();
    Grant written = locks.acquire(spec, KEY, LockMode.WRITE, jvm.newRequestId(), false);
    long waiter = jvm.newRequestId();
    Grant queued = locks.acquire(spec, KEY, LockMode.WRITE, waiter, true);
    assumeNoStallSince(start, lease);
    assertThat(written.outcome()).isEqualTo(Outcome.GRANTED);
    assertThat(queued).isEqualTo(Grant.QUEUED);
    Held writer = new Held(waiter - 1, written.fencingToken());
    Lease waiterLease = new Lease(Lease.Kind.LOCK, spec.name(), KEY, waiter, lease.toMillis());
    try (LeaseKeeper keeper = new LeaseKeeper(jvm.store(), List.of(waiterLease), lease, start)) {
      // nobody polls meanwhile: the store alone has to keep the waiter first
      fixture().letPass(lease.multipliedBy(3));
      Grant newcomer = locks.acquire(spec, KEY, LockMode.WRITE, jvm.newRequestId(), false);
      Grant polled = locks.poll(spec, KEY, waiter);
      assumeRenewedInTime(keeper, lease);
      assertThat(newcomer).as("a newcomer while a live waiter is queued").isEqualTo(Grant.REJECTED);
      assertThat(polled.outcome()).isEqualTo(Outcome.GRANTED);
      assertThat(polled.fencingToken()).isGreaterThan(writer.token());
    }
  }

  private void assertExclusion(List<StoreJvm> threads) throws InterruptedException {
    int rounds = 10;
    AtomicInteger readers = new AtomicInteger();
    AtomicInteger writers = new AtomicInteger();
    AtomicInteger violations = new AtomicInteger();
    AtomicInteger mostReaders = new AtomicInteger();
    AtomicInteger writes = new AtomicInteger();
    AtomicLong lastWriteToken = new AtomicLong();
    List<String> tokenErrors = new ArrayList<>();
    Concurrently.run(
        threads.size(),
        TIMEOUT.multipliedBy(3),
        index -> {
          StoreJvm jvm = threads.get(index);
          LockStore locks = jvm.locks();
          for (int round = 0; round < rounds; round++) {
            LockMode mode = (index + round) % 3 == 0 ? LockMode.WRITE : LockMode.READ;
            long request = jvm.newRequestId();
            Grant grant = locks.acquire(SPEC, KEY, mode, request, true);
            if (grant.outcome() == Outcome.QUEUED) {
              grant = awaitGrant(jvm, request, () -> locks.poll(SPEC, KEY, request));
            }
            assertThat(grant.isGranted()).isTrue();
            if (mode == LockMode.WRITE) {
              if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                violations.incrementAndGet();
              }
              long previous = lastWriteToken.getAndSet(grant.fencingToken());
              if (grant.fencingToken() <= previous) {
                synchronized (tokenErrors) {
                  tokenErrors.add("write token " + grant.fencingToken() + " after " + previous);
                }
              }
              writes.incrementAndGet();
              Thread.sleep(1);
              writers.decrementAndGet();
            } else {
              mostReaders.accumulateAndGet(readers.incrementAndGet(), Math::max);
              if (writers.get() != 0) {
                violations.incrementAndGet();
              }
              long last = lastWriteToken.get();
              if (last != 0 && grant.fencingToken() != last) {
                synchronized (tokenErrors) {
                  tokenErrors.add("read token " + grant.fencingToken() + ", last write " + last);
                }
              }
              Thread.sleep(1);
              readers.decrementAndGet();
            }
            locks.release(SPEC, KEY, request);
          }
        });
    assertThat(violations.get()).as("a writer beside another holder").isZero();
    assertThat(tokenErrors).isEmpty();
    assertThat(writes.get()).isEqualTo(20);
    assertThat(mostReaders.get()).isPositive();
  }

  static Lease lockLease(LockSpec spec, String key, long requestId) {
    return new Lease(Lease.Kind.LOCK, spec.name(), key, requestId, spec.leaseMillis());
  }

  /** A lock a request holds, with its fencing token. */
  record Held(long request, long token) {}

  private static Held granted(StoreJvm jvm, String key, LockMode mode) {
    return granted(jvm, SPEC, key, mode);
  }

  private static Held granted(StoreJvm jvm, LockSpec spec, String key, LockMode mode) {
    long request = jvm.newRequestId();
    Grant grant = jvm.locks().acquire(spec, key, mode, request, false);
    assertThat(grant.outcome())
        .as("%s request %s on %s", mode, request, key)
        .isEqualTo(Outcome.GRANTED);
    return new Held(request, grant.fencingToken());
  }

  private static long queued(StoreJvm jvm, String key, LockMode mode) {
    long request = jvm.newRequestId();
    assertThat(jvm.locks().acquire(SPEC, key, mode, request, true))
        .as("%s request %s", mode, request)
        .isEqualTo(Grant.QUEUED);
    return request;
  }
}
