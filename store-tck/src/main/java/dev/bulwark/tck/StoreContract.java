package dev.bulwark.tck;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Outcome;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

/**
 * What every contract suite shares: one {@link StoreFixture} per test, the JVMs it opens, and the
 * assumptions by which a store that legitimately differs (one JVM, leases that never expire) skips
 * a promise with a reason instead of passing it silently.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class StoreContract {

  /** The bound on every wait for something the store has to do. */
  protected static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** A lease no test outlives: for the tests where expiry is not the subject. */
  protected static final long LONG_LEASE_MILLIS = 60_000;

  private StoreFixture fixture;
  private StoreJvm jvm;

  /** A fixture for one test, on a clean store. */
  protected abstract StoreFixture createFixture();

  @BeforeEach
  final void openFixture() {
    fixture = createFixture();
  }

  @AfterEach
  final void closeFixture() {
    if (fixture != null) {
      fixture.close();
    }
  }

  protected final StoreFixture fixture() {
    return fixture;
  }

  /** The test's first JVM. */
  protected final StoreJvm jvm() {
    if (jvm == null) {
      jvm = fixture.openJvm();
    }
    return jvm;
  }

  /**
   * One more JVM sharing the store's state; skips the test for a store of one JVM, whose instances
   * share nothing.
   */
  protected final StoreJvm anotherJvm() {
    assumeTrue(
        fixture.jvmsShareState(),
        fixture.storeName() + " is a store of one JVM: no state is shared with another JVM");
    jvm();
    return fixture.openJvm();
  }

  /** Skips the test for a store whose leases never expire. */
  protected final void assumeLeasesExpire() {
    assumeTrue(
        jvm().store().leasesExpire(),
        fixture.storeName()
            + "'s leases never expire (its holders live and die with the JVM): nothing to reclaim"
            + " or renew");
  }

  /**
   * The lease the expiry tests wait out; skips the test for a store whose leases never expire or
   * which cannot let one run out within a test.
   */
  protected final Duration shortLease() {
    assumeLeasesExpire();
    Optional<Duration> lease = fixture.shortLease();
    assumeTrue(
        lease.isPresent(),
        fixture.storeName() + " cannot let a lease run out within a test (its fixture says so)");
    return lease.get();
  }

  /**
   * Skips the test when nearly a whole {@code lease} (seven eighths) passed since {@code
   * startNanos} (System.nanoTime): a machine that stalls that long breaks the premise that a lease
   * taken after that instant is still running, which is no fault of the store.
   */
  protected static void assumeNoStallSince(long startNanos, Duration lease) {
    long elapsed = System.nanoTime() - startNanos;
    assumeTrue(
        elapsed < lease.minus(lease.dividedBy(8)).toNanos(),
        "calls meant to fall within a lease of "
            + lease.toMillis()
            + " ms took "
            + elapsed / 1_000_000
            + " ms: the machine stalled, the premise does not hold");
  }

  /** Skips a test whose renewals came later than the premise allows (a stalled machine). */
  static void assumeRenewedInTime(LeaseKeeper keeper, Duration lease) {
    assumeTrue(
        keeper.longestGap().compareTo(lease.minus(lease.dividedBy(8))) < 0,
        "the test renewed a lease of "
            + lease.toMillis()
            + " ms only after "
            + keeper.longestGap().toMillis()
            + " ms: the machine stalled, the premise does not hold");
  }

  /** Lets the store's clock pass beyond {@code lease}, with a margin of half a lease. */
  protected final void letLeasePass(Duration lease) throws InterruptedException {
    fixture.letPass(lease.plus(lease.dividedBy(2)));
  }

  /**
   * Waits for a queued request as the engine does: it trusts the JVM's listener, and when the
   * store's wake-ups can be lost it polls once per {@code wakeUpCheckInterval}. Fails when the
   * request is dropped or not granted within {@link #TIMEOUT}.
   *
   * @return the grant, with its fencing token
   */
  protected static Grant awaitGrant(StoreJvm jvm, long requestId, Supplier<Grant> poll)
      throws InterruptedException {
    Duration check = jvm.store().wakeUpCheckInterval();
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "request " + requestId + " of " + jvm + " was not granted within " + TIMEOUT);
      }
      Duration wait = Duration.ofNanos(left);
      if (!check.isZero() && check.compareTo(wait) < 0) {
        wait = check;
      }
      Optional<HandOver> handOver = jvm.awaitHandOver(requestId, wait);
      if (handOver.isPresent()) {
        return Grant.granted(handOver.get().fencingToken());
      }
      if (!check.isZero()) {
        Grant polled = poll.get();
        if (polled.outcome() == Outcome.REJECTED) {
          throw new AssertionError("queued request " + requestId + " of " + jvm + " was dropped");
        }
        if (polled.isGranted()) {
          return polled;
        }
      }
    }
  }
}
