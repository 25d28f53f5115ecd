package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Holder;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.RateLimitType;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The promises of the operator's view ({@code inspect} on {@link PermitStore}, {@link LockStore}
 * and {@code RateStore}): it shows the live holders with their JVM, lease and grant time, the queue
 * and the permits left, as every JVM that shares the store sees them; a holder whose lease ran out
 * is left out; the queue's waiters listed in queue order; and reading takes, grants and hands over
 * nothing.
 *
 * <p>A grant time ({@link Holder#since}) is on the store's clock, between the readings of that
 * clock taken around the call that granted it (for a queued request: around the call that handed it
 * over, not the one that queued it), and a renewal of the lease leaves it as it was.
 */
public abstract class InspectContract extends StoreContract {

  private static final String NAME = "tck-inspect";

  /** A store may keep its lease ends in whole milliseconds. */
  private static final long ROUNDING_NANOS = 1_000_000;

  /**
   * Let pass between a request's arrival and its hand-over, so that the two grant times the
   * promises tell apart lie more than {@link #ROUNDING_NANOS} apart on the store's clock.
   */
  private static final Duration APART = Duration.ofMillis(5);

  @Test
  public void aBulkheadShowsItsHoldersItsQueueAndThePermitsLeft() throws InterruptedException {
    PermitSpec spec = new PermitSpec(NAME, 2, LONG_LEASE_MILLIS);
    PermitStore permits = jvm().store().permits();
    assertThat(permits.inspect(spec)).isEqualTo(new BulkheadSnapshot(NAME, 2, List.of(), 0));

    long before = fixture().clockNanos();
    long first = jvm().newRequestId();
    long second = jvm().newRequestId();
    long waiting = jvm().newRequestId();
    assertThat(permits.acquire(spec, first, true)).isEqualTo(Grant.GRANTED);
    assertThat(permits.acquire(spec, second, true)).isEqualTo(Grant.GRANTED);
    assertThat(permits.acquire(spec, waiting, true)).isEqualTo(Grant.QUEUED);
    long after = fixture().clockNanos();

    BulkheadSnapshot full = permits.inspect(spec);
    assertThat(full.holders()).extracting(Holder::request).containsExactlyInAnyOrder(first, second);
    assertThat(full.holders()).extracting(Holder::instance).containsOnly(instanceOf(full));
    assertThat(full.queued()).isEqualTo(1);
    assertThat(full.waiting()).extracting(Holder::request).containsExactly(waiting);
    assertThat(full.waiting()).extracting(Holder::instance).containsOnly(instanceOf(full));
    assertThat(full.available()).isZero();
    assertLeases(full.holders(), before, after, LONG_LEASE_MILLIS);
    assertLeases(full.waiting(), before, after, LONG_LEASE_MILLIS);
    assertGrantTimes(full.holders(), before, after);
    assertThat(permits.inspect(spec)).as("reading twice").isEqualTo(full);

    fixture().letPass(APART);
    long beforeRelease = fixture().clockNanos();
    assertThat(permits.release(spec, first)).isTrue();
    long afterRelease = fixture().clockNanos();
    BulkheadSnapshot handedOver = permits.inspect(spec);
    assertThat(handedOver.holders())
        .extracting(Holder::request)
        .containsExactlyInAnyOrder(second, waiting);
    assertThat(handedOver.queued()).isZero();
    assertThat(handedOver.waiting()).isEmpty();
    assertGrantTimes(
        handedOver.holders().stream().filter(h -> h.request() == waiting).toList(),
        beforeRelease,
        afterRelease);
  }

  @Test
  public void aBulkheadShowsTheHoldersAndWaitersOfEveryJvmToEachJvm() {
    PermitSpec spec = new PermitSpec(NAME, 2, LONG_LEASE_MILLIS);
    StoreJvm other = anotherJvm();
    long mine = jvm().newRequestId();
    long theirs = other.newRequestId();
    assertThat(jvm().permits().acquire(spec, mine, true)).isEqualTo(Grant.GRANTED);
    assertThat(other.permits().acquire(spec, theirs, true)).isEqualTo(Grant.GRANTED);
    assertThat(jvm().permits().acquire(spec, jvm().newRequestId(), true)).isEqualTo(Grant.QUEUED);

    BulkheadSnapshot seenHere = jvm().permits().inspect(spec);
    BulkheadSnapshot seenThere = other.permits().inspect(spec);
    assertThat(seenThere).isEqualTo(seenHere);
    assertThat(seenHere.queued()).isEqualTo(1);
    assertThat(seenHere.holders()).extracting(Holder::instance).doesNotHaveDuplicates().hasSize(2);
    assertThat(seenHere.holders())
        .extracting(Holder::request)
        .containsExactlyInAnyOrder(mine, theirs);
  }

  /**
   * The queue is listed like the holders, in the order it is served, from every JVM: each waiter
   * with its JVM, request and lease; a waiter handed its permit leaves the list.
   */
  @Test
  public void aBulkheadListsItsWaitersInQueueOrder() {
    PermitSpec spec = new PermitSpec(NAME, 1, LONG_LEASE_MILLIS);
    StoreJvm other = anotherJvm();
    long holder = jvm().newRequestId();
    long firstWaiter = other.newRequestId();
    long secondWaiter = jvm().newRequestId();
    long before = fixture().clockNanos();
    assertThat(jvm().permits().acquire(spec, holder, true)).isEqualTo(Grant.GRANTED);
    assertThat(other.permits().acquire(spec, firstWaiter, true)).isEqualTo(Grant.QUEUED);
    assertThat(jvm().permits().acquire(spec, secondWaiter, true)).isEqualTo(Grant.QUEUED);
    long after = fixture().clockNanos();

    BulkheadSnapshot queued = jvm().permits().inspect(spec);
    assertThat(queued.queued()).isEqualTo(2);
    assertThat(queued.waiting())
        .extracting(Holder::request)
        .containsExactly(firstWaiter, secondWaiter);
    assertThat(queued.waiting().get(0).instance())
        .isNotEqualTo(queued.waiting().get(1).instance())
        .isNotEqualTo(queued.holders().get(0).instance());
    assertThat(queued.waiting().get(1).instance()).isEqualTo(queued.holders().get(0).instance());
    assertLeases(queued.waiting(), before, after, LONG_LEASE_MILLIS);
    assertThat(other.permits().inspect(spec)).isEqualTo(queued);

    assertThat(jvm().permits().release(spec, holder)).isTrue();
    BulkheadSnapshot handedOver = jvm().permits().inspect(spec);
    assertThat(handedOver.holders()).extracting(Holder::request).containsExactly(firstWaiter);
    assertThat(handedOver.waiting()).extracting(Holder::request).containsExactly(secondWaiter);
  }

  @Test
  public void aLockKeyShowsItsWriterItsReadersAndItsQueue() throws InterruptedException {
    LockSpec spec = new LockSpec(NAME, LONG_LEASE_MILLIS);
    LockStore locks = jvm().locks();
    assertThat(locks.inspect(spec, "acct-1"))
        .isEqualTo(new LockKeySnapshot(NAME, "acct-1", Optional.empty(), List.of(), 0));

    long before = fixture().clockNanos();
    long writer = jvm().newRequestId();
    long reader = jvm().newRequestId();
    assertThat(locks.acquire(spec, "acct-1", LockMode.WRITE, writer, true).isGranted()).isTrue();
    assertThat(locks.acquire(spec, "acct-1", LockMode.READ, reader, true)).isEqualTo(Grant.QUEUED);
    long after = fixture().clockNanos();

    LockKeySnapshot written = locks.inspect(spec, "acct-1");
    assertThat(written.writer()).get().extracting(Holder::request).isEqualTo(writer);
    assertLeases(List.of(written.writer().orElseThrow()), before, after, LONG_LEASE_MILLIS);
    assertGrantTimes(List.of(written.writer().orElseThrow()), before, after);
    assertThat(written.readers()).isEmpty();
    assertThat(written.queued()).isEqualTo(1);
    assertThat(locks.inspect(spec, "acct-2"))
        .as("another key")
        .isEqualTo(new LockKeySnapshot(NAME, "acct-2", Optional.empty(), List.of(), 0));

    fixture().letPass(APART);
    long beforeRelease = fixture().clockNanos();
    assertThat(locks.release(spec, "acct-1", writer)).isTrue();
    long afterRelease = fixture().clockNanos();
    fixture().letPass(APART);
    long beforeSecond = fixture().clockNanos();
    long secondReader = jvm().newRequestId();
    assertThat(locks.acquire(spec, "acct-1", LockMode.READ, secondReader, true).isGranted())
        .isTrue();
    long afterSecond = fixture().clockNanos();
    LockKeySnapshot read = locks.inspect(spec, "acct-1");
    assertThat(read.writer()).isEmpty();
    assertThat(read.readers())
        .extracting(Holder::request)
        .containsExactlyInAnyOrder(reader, secondReader);
    assertThat(read.queued()).isZero();
    assertGrantTimes(readers(read, reader), beforeRelease, afterRelease);
    assertGrantTimes(readers(read, secondReader), beforeSecond, afterSecond);
  }

  @Test
  public void aRenewalMovesTheLeaseAndLeavesTheGrantTime() throws InterruptedException {
    PermitSpec permitSpec = new PermitSpec(NAME, 2, LONG_LEASE_MILLIS);
    LockSpec lockSpec = new LockSpec(NAME, LONG_LEASE_MILLIS);
    long permit = jvm().newRequestId();
    long writer = jvm().newRequestId();
    long reader = jvm().newRequestId();
    assertThat(jvm().permits().acquire(permitSpec, permit, false)).isEqualTo(Grant.GRANTED);
    assertThat(jvm().locks().acquire(lockSpec, "acct-1", LockMode.WRITE, writer, false).isGranted())
        .isTrue();
    assertThat(jvm().locks().acquire(lockSpec, "acct-2", LockMode.READ, reader, false).isGranted())
        .isTrue();
    List<Holder> granted = holdersOf(permitSpec, lockSpec);
    assertThat(granted).hasSize(3).allSatisfy(h -> assertThat(h.since()).isPresent());

    fixture().letPass(APART);
    long renewal = fixture().clockNanos();
    List<Lease> leases =
        List.of(
            new Lease(Lease.Kind.PERMIT, NAME, "", permit, LONG_LEASE_MILLIS),
            new Lease(Lease.Kind.LOCK, NAME, "acct-1", writer, LONG_LEASE_MILLIS),
            new Lease(Lease.Kind.LOCK, NAME, "acct-2", reader, LONG_LEASE_MILLIS));
    assertThat(jvm().store().renew(leases)).as("leases lost").isEmpty();

    List<Holder> renewed = holdersOf(permitSpec, lockSpec);
    assertThat(renewed)
        .extracting(Holder::since)
        .isEqualTo(granted.stream().map(Holder::since).toList());
    if (jvm().store().leasesExpire()) {
      Instant earliest =
          nanos(renewal + TimeUnit.MILLISECONDS.toNanos(LONG_LEASE_MILLIS) - ROUNDING_NANOS);
      assertThat(renewed)
          .allSatisfy(h -> assertThat(h.leaseExpiry().orElseThrow()).isAfterOrEqualTo(earliest));
    }
  }

  /** The permit's holder, the writer of acct-1 and the reader of acct-2, in that order. */
  private List<Holder> holdersOf(PermitSpec permitSpec, LockSpec lockSpec) {
    return List.of(
        jvm().permits().inspect(permitSpec).holders().get(0),
        jvm().locks().inspect(lockSpec, "acct-1").writer().orElseThrow(),
        jvm().locks().inspect(lockSpec, "acct-2").readers().get(0));
  }

  private static List<Holder> readers(LockKeySnapshot snapshot, long request) {
    return snapshot.readers().stream().filter(h -> h.request() == request).toList();
  }

  @Test
  public void aLockKeyShowsTheWriterOfAnotherJvm() {
    LockSpec spec = new LockSpec(NAME, LONG_LEASE_MILLIS);
    StoreJvm other = anotherJvm();
    long writer = other.newRequestId();
    assertThat(other.locks().acquire(spec, "acct-1", LockMode.WRITE, writer, true).isGranted())
        .isTrue();
    long reader = jvm().newRequestId();
    assertThat(jvm().locks().acquire(spec, "acct-1", LockMode.READ, reader, true))
        .isEqualTo(Grant.QUEUED);

    LockKeySnapshot seenHere = jvm().locks().inspect(spec, "acct-1");
    assertThat(seenHere).isEqualTo(other.locks().inspect(spec, "acct-1"));
    assertThat(seenHere.writer()).get().extracting(Holder::request).isEqualTo(writer);
    assertThat(seenHere.queued()).isEqualTo(1);

    assertThat(other.locks().release(spec, "acct-1", writer)).isTrue();
    LockKeySnapshot read = other.locks().inspect(spec, "acct-1");
    assertThat(read.readers()).extracting(Holder::request).containsExactly(reader);
    assertThat(read.readers().get(0).instance())
        .as("the reader's JVM is not the writer's")
        .isNotEqualTo(seenHere.writer().orElseThrow().instance());
  }

  @Test
  public void aHolderWhoseLeaseRanOutIsLeftOutAndNothingIsHandedOver() throws InterruptedException {
    Duration lease = shortLease();
    PermitSpec spec = new PermitSpec(NAME, 1, lease.toMillis());
    long gone = jvm().newRequestId();
    assertThat(jvm().permits().acquire(spec, gone, true)).isEqualTo(Grant.GRANTED);
    assertThat(jvm().permits().inspect(spec).holders()).hasSize(1);
    letLeasePass(lease);

    assertThat(jvm().permits().inspect(spec))
        .isEqualTo(new BulkheadSnapshot(NAME, 1, List.of(), 0));
    assertThat(jvm().handOvers()).as("reading hands nothing over").isEmpty();
    long next = jvm().newRequestId();
    assertThat(jvm().permits().acquire(spec, next, false)).isEqualTo(Grant.GRANTED);
    assertThat(jvm().permits().inspect(spec).holders())
        .extracting(Holder::request)
        .containsExactly(next);
  }

  @Test
  public void aRateLimitShowsThePermitsLeftOfEveryTypeWithoutTakingAny() {
    StoreJvm other = fixture().jvmsShareState() ? anotherJvm() : jvm();
    for (RateLimitType type : RateLimitType.values()) {
      // a FIXED window may end during the calls: then once more, in the next window
      if (!permitsLeftWithinOneWindow(other, type, 0)) {
        assertThat(permitsLeftWithinOneWindow(other, type, 1)).as(type.toString()).isTrue();
      }
    }
  }

  private boolean permitsLeftWithinOneWindow(StoreJvm other, RateLimitType type, int attempt) {
    long window = TimeUnit.HOURS.toNanos(1);
    RateSpec spec = new RateSpec(NAME + "-" + type + "-" + attempt, type, 3, window);
    long before = fixture().clockNanos();
    assertThat(other.rates().inspect(spec))
        .as(type + ", never used")
        .isEqualTo(new RateLimitSnapshot(spec.name(), 3, 3));
    assertThat(jvm().rates().reserve(spec, 0).granted()).isTrue();
    assertThat(jvm().rates().reserve(spec, 0).granted()).isTrue();
    int afterTwo = other.rates().inspect(spec).available();
    int readAgain = other.rates().inspect(spec).available();
    assertThat(jvm().rates().reserve(spec, 0).granted()).isTrue();
    int afterThree = other.rates().inspect(spec).available();
    boolean fourth = jvm().rates().reserve(spec, 0).granted();
    if (before / window != fixture().clockNanos() / window) {
      return false;
    }
    assertThat(afterTwo).as(type.toString()).isEqualTo(1);
    assertThat(readAgain).as(type + ": reading takes nothing").isEqualTo(1);
    assertThat(afterThree).as(type.toString()).isZero();
    assertThat(fourth).as(type + ": a fourth call").isFalse();
    return true;
  }

  /** The one instance the holders of a one-JVM snapshot share. */
  private static String instanceOf(BulkheadSnapshot snapshot) {
    return snapshot.holders().get(0).instance();
  }

  /**
   * A store whose leases expire shows each lease's end, granted between the two clock readings; one
   * whose leases never expire shows none.
   */
  private void assertLeases(List<Holder> holders, long before, long after, long leaseMillis) {
    if (!jvm().store().leasesExpire()) {
      assertThat(holders).allSatisfy(h -> assertThat(h.leaseExpiry()).isEmpty());
      return;
    }
    long lease = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
    Instant earliest = nanos(before + lease - ROUNDING_NANOS);
    Instant latest = nanos(after + lease + ROUNDING_NANOS);
    assertThat(holders)
        .allSatisfy(h -> assertThat(h.leaseExpiry().orElseThrow()).isBetween(earliest, latest));
  }

  /** Each holder's grant time lies between the two clock readings taken around its grant. */
  private void assertGrantTimes(List<Holder> holders, long before, long after) {
    Instant earliest = nanos(before - ROUNDING_NANOS);
    Instant latest = nanos(after + ROUNDING_NANOS);
    assertThat(holders)
        .isNotEmpty()
        .allSatisfy(h -> assertThat(h.since().orElseThrow()).isBetween(earliest, latest));
  }

  private static Instant nanos(long epochNanos) {
    return Instant.ofEpochSecond(0, epochNanos);
  }
}
