package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The promises of {@link GrantListener} and {@code wakeUpCheckInterval}: the listener of a JVM is
 * told of exactly the hand-overs to its own queued requests (never of a grant the caller got from
 * its own call, a rejection or a withdrawal); a store whose check interval is zero tells it within
 * the call that grants; a store whose wake-ups can be lost delivers them anyway in the normal case,
 * and poll finds every grant a wake-up would have announced.
 */
public abstract class WakeUpContract extends StoreContract {

  private static final PermitSpec PERMITS = new PermitSpec("tck-woken", 1, LONG_LEASE_MILLIS);
  private static final LockSpec LOCKS = new LockSpec("tck-woken", LONG_LEASE_MILLIS);
  private static final String KEY = "k";

  @Test
  public void onlyHandOversToQueuedRequestsAreTold() {
    StoreJvm jvm = jvm();
    long holder = jvm.newRequestId();
    assertThat(jvm.permits().acquire(PERMITS, holder, true)).isEqualTo(Grant.GRANTED);
    assertThat(jvm.permits().acquire(PERMITS, jvm.newRequestId(), false)).isEqualTo(Grant.REJECTED);
    long withdrawn = jvm.newRequestId();
    long waiter = jvm.newRequestId();
    assertThat(jvm.permits().acquire(PERMITS, withdrawn, true)).isEqualTo(Grant.QUEUED);
    assertThat(jvm.permits().acquire(PERMITS, waiter, true)).isEqualTo(Grant.QUEUED);
    assertThat(jvm.permits().cancel(PERMITS, withdrawn)).isEqualTo(Grant.REJECTED);
    assertThat(jvm.permits().poll(PERMITS, waiter)).isEqualTo(Grant.QUEUED);

    long writer = jvm.newRequestId();
    Grant written = jvm.locks().acquire(LOCKS, KEY, LockMode.WRITE, writer, true);
    assertThat(written.isGranted()).isTrue();
    long reader = jvm.newRequestId();
    assertThat(jvm.locks().acquire(LOCKS, KEY, LockMode.READ, reader, true))
        .isEqualTo(Grant.QUEUED);
    assertThat(jvm.handOvers()).isEmpty();

    jvm.permits().release(PERMITS, holder);
    jvm.locks().release(LOCKS, KEY, writer);
    List<HandOver> told = jvm.handOvers();
    assertThat(told).extracting(HandOver::requestId).containsExactly(waiter, reader);
    assertThat(told.get(1).fencingToken()).isEqualTo(written.fencingToken());
    jvm.permits().release(PERMITS, waiter);
    jvm.locks().release(LOCKS, KEY, reader);
    assertThat(jvm.handOvers()).hasSize(2);
  }

  @Test
  public void aStoreWhoseWakeUpsCannotBeLostTellsTheListenerWithinTheGrantingCall() {
    StoreJvm jvm = jvm();
    Duration check = jvm.store().wakeUpCheckInterval();
    assumeTrue(
        check.isZero(),
        fixture().storeName()
            + " delivers wake-ups asynchronously (waiters poll every "
            + check.toMillis()
            + " ms)");
    long holder = jvm.newRequestId();
    long waiter = jvm.newRequestId();
    jvm.permits().acquire(PERMITS, holder, true);
    assertThat(jvm.permits().acquire(PERMITS, waiter, true)).isEqualTo(Grant.QUEUED);
    jvm.permits().release(PERMITS, holder);
    assertThat(jvm.handOversHeard()).extracting(HandOver::requestId).containsExactly(waiter);

    long writer = jvm.newRequestId();
    long queuedWriter = jvm.newRequestId();
    long reader = jvm.newRequestId();
    assertThat(jvm.locks().acquire(LOCKS, KEY, LockMode.READ, reader, true).isGranted()).isTrue();
    assertThat(jvm.locks().acquire(LOCKS, KEY, LockMode.WRITE, writer, true))
        .isEqualTo(Grant.QUEUED);
    assertThat(jvm.locks().acquire(LOCKS, KEY, LockMode.WRITE, queuedWriter, true))
        .isEqualTo(Grant.QUEUED);
    jvm.locks().release(LOCKS, KEY, reader);
    assertThat(jvm.handOversHeard())
        .extracting(HandOver::requestId)
        .containsExactly(waiter, writer);
    jvm.locks().release(LOCKS, KEY, writer);
    assertThat(jvm.handOversHeard())
        .extracting(HandOver::requestId)
        .containsExactly(waiter, writer, queuedWriter);
  }

  @Test
  public void aStoreWhoseWakeUpsCanBeLostDeliversThemAndPollFindsEveryGrant()
      throws InterruptedException {
    StoreJvm jvm = jvm();
    Duration check = jvm.store().wakeUpCheckInterval();
    assumeFalse(
        check.isZero(), fixture().storeName() + "'s wake-ups cannot be lost: nothing to poll for");
    assertThat(check).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1));
    long holder = jvm.newRequestId();
    List<Long> waiters = new ArrayList<>();
    assertThat(jvm.permits().acquire(PERMITS, holder, true)).isEqualTo(Grant.GRANTED);
    for (int i = 0; i < 5; i++) {
      long waiter = jvm.newRequestId();
      assertThat(jvm.permits().acquire(PERMITS, waiter, true)).isEqualTo(Grant.QUEUED);
      waiters.add(waiter);
    }
    long previous = holder;
    for (long waiter : waiters) {
      jvm.permits().release(PERMITS, previous);
      // the wake-up arrives without a poll...
      assertThat(jvm.awaitHandOver(waiter, TIMEOUT)).as("wake-up of %s", waiter).isPresent();
      // ...and a poll finds the same grant
      assertThat(jvm.permits().poll(PERMITS, waiter)).isEqualTo(Grant.GRANTED);
      previous = waiter;
    }
    jvm.permits().release(PERMITS, previous);
    assertThat(jvm.handedOverRequests()).containsExactlyElementsOf(waiters);
  }

  @Test
  public void eachJvmIsToldOfTheHandOversToItsOwnRequestsWhoeverReleased() {
    StoreJvm a = jvm();
    StoreJvm b = anotherJvm();
    long aHolder = a.newRequestId();
    assertThat(a.locks().acquire(LOCKS, KEY, LockMode.WRITE, aHolder, true).isGranted()).isTrue();
    List<Long> bReaders = new ArrayList<>();
    List<Long> aReaders = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      long bReader = b.newRequestId();
      long aReader = a.newRequestId();
      assertThat(b.locks().acquire(LOCKS, KEY, LockMode.READ, bReader, true))
          .isEqualTo(Grant.QUEUED);
      assertThat(a.locks().acquire(LOCKS, KEY, LockMode.READ, aReader, true))
          .isEqualTo(Grant.QUEUED);
      bReaders.add(bReader);
      aReaders.add(aReader);
    }
    a.locks().release(LOCKS, KEY, aHolder);
    assertThat(a.handedOverRequests()).containsExactlyElementsOf(aReaders);
    assertThat(b.handedOverRequests()).containsExactlyElementsOf(bReaders);
  }
}
