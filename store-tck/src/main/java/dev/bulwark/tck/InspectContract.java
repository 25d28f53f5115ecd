package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Holder;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.RateLimitType;
import dev.bulwark.spi.Grant;
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
 * and {@code RateStore}): it shows the live holders with their JVM, lease and (where the store
 * records it) grant time, the queue and the permits left, as every JVM that shares the store sees
 * them; a holder whose lease ran out is left out; and reading takes, grants and hands over nothing.
 */
public abstract class InspectContract extends StoreContract {

  private static final String NAME = "tck-inspect";

  /** A store may keep its lease ends in whole milliseconds. */
  private static final long ROUNDING_NANOS = 1_000_000;

  @Test
  public void aBulkheadShowsItsHoldersItsQueueAndThePermitsLeft() {
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
    assertThat(full.available()).isZero();
    assertLeases(full.holders(), before, after, LONG_LEASE_MILLIS);
    assertGrantTimes(full.holders(), before, after);
    assertThat(permits.inspect(spec)).as("reading twice").isEqualTo(full);

    long beforeRelease = fixture().clockNanos();
    assertThat(permits.release(spec, first)).isTrue();
    long afterRelease = fixture().clockNanos();
    BulkheadSnapshot handedOver = permits.inspect(spec);
    assertThat(handedOver.holders())
        .extracting(Holder::request)
        .containsExactlyInAnyOrder(second, waiting);
    assertThat(handedOver.queued()).isZero();
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

  @Test
  public void aLockKeyShowsItsWriterItsReadersAndItsQueue() {
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

    assertThat(locks.release(spec, "acct-1", writer)).isTrue();
    long secondReader = jvm().newRequestId();
    assertThat(locks.acquire(spec, "acct-1", LockMode.READ, secondReader, true).isGranted())
        .isTrue();
    LockKeySnapshot read = locks.inspect(spec, "acct-1");
    assertThat(read.writer()).isEmpty();
    assertThat(read.readers())
        .extracting(Holder::request)
        .containsExactlyInAnyOrder(reader, secondReader);
    assertThat(read.queued()).isZero();
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

  /**
   * A store that records grant times shows each holder's between the two clock readings taken
   * around its grant; one that does not shows none.
   */
  private void assertGrantTimes(List<Holder> holders, long before, long after) {
    if (!fixture().recordsGrantTimes()) {
      assertThat(holders).allSatisfy(h -> assertThat(h.since()).isEmpty());
      return;
    }
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
