package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.bulwark.DistributedRateLimit;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.RateLimitType;
import dev.bulwark.it.support.Callers;
import dev.bulwark.it.support.Deployments;
import dev.bulwark.it.support.Timeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.assertj.core.data.Offset;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @DistributedRateLimit} on a bean in Weld, local store: the three algorithms, waiting by
 * reservation and the {@code retryAfter} of a rejection, checked against recorded grant times.
 */
@ExtendWith(ArquillianExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RateLimitTest {

  static final Duration WAIT = Duration.ofSeconds(5);

  /**
   * How late a grant may be recorded after its slot: wake-up and scheduling on a busy 2-core box
   * (seen: 88 ms with three CPU hogs beside the build).
   */
  static final double LATE_MS = 150;

  /** How early a grant may be recorded before its slot (clock reads on two sides). */
  static final double EARLY_MS = 10;

  @ApplicationScoped
  public static class Limited {

    @DistributedRateLimit(
        value = 5,
        window = 1,
        windowUnit = ChronoUnit.SECONDS,
        type = RateLimitType.SMOOTH,
        waitingTime = 3,
        waitingTimeUnit = ChronoUnit.SECONDS)
    public void smoothWaiting(Timeline timeline, int id) {
      timeline.record(id);
    }

    @DistributedRateLimit(value = 5, window = 1, windowUnit = ChronoUnit.SECONDS)
    public void smoothRejecting(Timeline timeline, int id) {
      timeline.record(id);
    }

    @DistributedRateLimit(value = 5, type = RateLimitType.FIXED)
    public void fixed(Timeline timeline, int id) {
      timeline.record(id);
    }

    @DistributedRateLimit(
        value = 5,
        type = RateLimitType.ROLLING,
        waitingTime = 3,
        waitingTimeUnit = ChronoUnit.SECONDS)
    public void rollingWaiting(Timeline timeline, int id) {
      timeline.record(id);
    }

    @DistributedRateLimit(value = 5, type = RateLimitType.ROLLING)
    public void rolling(Timeline timeline, int id) {
      timeline.record(id);
    }

    @DistributedRateLimit(value = 5, window = 1, windowUnit = ChronoUnit.MINUTES)
    public void rejecting(Timeline timeline, int id) {
      timeline.record(id);
    }
  }

  @Deployment
  static JavaArchive deployment() {
    return Deployments.bulwark("ratelimit", Limited.class, Timeline.class);
  }

  @Inject Limited limited;

  @Test
  void smoothGivesABurstOfFiveThenOneEvery200Millis() throws Exception {
    Timeline timeline = new Timeline();
    CyclicBarrier start = new CyclicBarrier(10);
    // the limiter's schedule starts at the first reservation, which comes after the first caller
    // leaves the barrier; a grant recorded late (a preempted thread) must not move the reference
    AtomicLong firstCall = new AtomicLong(Long.MAX_VALUE);
    try (Callers callers = new Callers("smooth")) {
      for (int i = 0; i < 10; i++) {
        int id = i;
        callers.run(
            () -> {
              start.await(5, TimeUnit.SECONDS);
              firstCall.accumulateAndGet(System.nanoTime(), Math::min);
              limited.smoothWaiting(timeline, id);
            });
      }
      for (var caller : callers.all()) {
        caller.result(WAIT);
      }
    }

    List<Timeline.Grant> grants = timeline.grants();
    assertThat(grants).hasSize(10);
    List<Double> at = timeline.millisAfter(firstCall.get());
    // the burst: five at once
    for (int i = 0; i < 5; i++) {
      assertThat(at.get(i)).as("burst grant %d at %s", i, at).isLessThan(LATE_MS);
    }
    // then one per emission interval (1 s / 5), never early
    for (int i = 5; i < 10; i++) {
      double slot = (i - 4) * 200.0;
      assertThat(at.get(i))
          .as("grant %d (slot %.0f ms) in %s", i, slot, at)
          .isBetween(slot - EARLY_MS, slot + LATE_MS);
    }
    // a late wake-up delays one grant, not the slots after it: the mean spacing stays 200 ms
    assertThat((at.get(9) - at.get(5)) / 4)
        .as("mean spacing of the grants after the burst in %s", at)
        .isCloseTo(200.0, Offset.offset(LATE_MS / 4));
  }

  @Test
  void smoothRejectionTellsWhenTheNextPermitFreesUp() {
    Timeline timeline = new Timeline();
    for (int i = 0; i < 5; i++) {
      limited.smoothRejecting(timeline, i);
    }
    RateLimitExceededException rejection = rejection(() -> limited.smoothRejecting(timeline, 5));
    long rejectedAt = System.nanoTime();

    assertThat(rejection).isInstanceOf(FaultToleranceException.class);
    assertThat(rejection.getLimitName()).isEqualTo(Limited.class.getName() + "#smoothRejecting");
    double retryAfter = rejection.getRetryAfter().toNanos() / 1e6;
    double sinceBurst = Timeline.millis(timeline.grants().get(0).nanos(), rejectedAt);
    // the burst used the 5 permits; the next comes one emission interval after the burst
    assertThat(retryAfter).isBetween(200 - sinceBurst - EARLY_MS, 200.0 + EARLY_MS);

    long grantedAt = pollUntilGranted(timeline, () -> limited.smoothRejecting(timeline, 6));
    assertRetryAfterMatches(retryAfter, Timeline.millis(rejectedAt, grantedAt), 200);
  }

  @Test
  void fixedAllowsFivePerAlignedWindowAndResetsTheCount() {
    Timeline timeline = new Timeline();
    // use up whatever is left of the current window
    int id = 0;
    RateLimitExceededException first = null;
    while (first == null && id < 11) {
      try {
        limited.fixed(timeline, id++);
      } catch (RateLimitExceededException e) {
        first = e;
      }
    }
    assertThat(first).as("no rejection after %d calls", id).isNotNull();
    long firstRejectedAt = System.nanoTime();

    // the window resets at a whole second of the store clock (the local clock is wall-clock)
    long window1 = pollUntilGranted(timeline, () -> limited.fixed(timeline, 100));
    assertRetryAfterMatches(
        first.getRetryAfter().toNanos() / 1e6, Timeline.millis(firstRejectedAt, window1), 1000);
    long wallMillis = last(timeline).epochMillis() % 1000;
    assertThat(wallMillis < LATE_MS || wallMillis > 995)
        .as("the reset came %d ms past a wall-clock second", wallMillis)
        .isTrue();

    // late in that window, take the 4 permits it has left: the 5th call is rejected
    Timeline.parkUntil(window1 + TimeUnit.MILLISECONDS.toNanos(700));
    for (int i = 0; i < 4; i++) {
      limited.fixed(timeline, 101 + i);
    }
    RateLimitExceededException full = rejection(() -> limited.fixed(timeline, 105));
    long fullAt = System.nanoTime();
    assertThat(Timeline.millis(window1, fullAt)).as("still in the first window").isLessThan(1000.0);

    // the next window gives five more right away, although 5 were granted less than 1 s ago
    long window2 = pollUntilGranted(timeline, () -> limited.fixed(timeline, 200));
    assertRetryAfterMatches(
        full.getRetryAfter().toNanos() / 1e6, Timeline.millis(fullAt, window2), 1000);
    assertThat(Timeline.millis(window1, window2))
        .as("windows are one second apart")
        .isCloseTo(1000.0, Offset.offset(LATE_MS));
    for (int i = 0; i < 4; i++) {
      limited.fixed(timeline, 201 + i);
    }
    rejection(() -> limited.fixed(timeline, 205));
    long secondWindowDone = System.nanoTime();
    assertThat(Timeline.millis(window2, secondWindowDone)).isLessThan(1000.0);

    long inWindow1 = timeline.grants().stream().filter(g -> g.id() >= 100 && g.id() < 200).count();
    long inWindow2 = timeline.grants().stream().filter(g -> g.id() >= 200).count();
    assertThat(inWindow1).isEqualTo(5);
    assertThat(inWindow2).isEqualTo(5);
    // nine grants within about 300 ms across the boundary: a fixed window, not a rolling one
    assertThat(timeline.maxInAnyWindow(Duration.ofMillis(600))).isGreaterThanOrEqualTo(9);
  }

  @Test
  void rollingWaitersNeverExceedFiveInAnySecond() throws Exception {
    Timeline timeline = new Timeline();
    CyclicBarrier start = new CyclicBarrier(10);
    try (Callers callers = new Callers("rolling")) {
      for (int i = 0; i < 10; i++) {
        int id = i;
        callers.run(
            () -> {
              start.await(5, TimeUnit.SECONDS);
              limited.rollingWaiting(timeline, id);
            });
      }
      for (var caller : callers.all()) {
        caller.result(WAIT);
      }
    }

    List<Double> at = timeline.millisAfter(timeline.grants().get(0).nanos());
    assertThat(at).hasSize(10);
    for (int i = 0; i < 5; i++) {
      assertThat(at.get(i)).as("first five at once: %s", at).isLessThan(LATE_MS);
      assertThat(at.get(i + 5) - at.get(i))
          .as("grant %d is a window after grant %d: %s", i + 5, i, at)
          .isGreaterThanOrEqualTo(1000.0 - EARLY_MS);
      assertThat(at.get(i + 5)).as("waiters are not late: %s", at).isLessThan(1000 + LATE_MS * 2);
    }
    assertThat(timeline.maxInAnyWindow(Duration.ofMillis(1000 - (long) EARLY_MS))).isEqualTo(5);
  }

  @Test
  void rollingFreesEachPermitOneWindowAfterItsGrant() {
    Timeline timeline = new Timeline();
    long t0 = System.nanoTime();
    limited.rolling(timeline, 0);
    limited.rolling(timeline, 1);
    Timeline.parkUntil(t0 + TimeUnit.MILLISECONDS.toNanos(400));
    long t400 = System.nanoTime();
    for (int i = 2; i < 5; i++) {
      limited.rolling(timeline, i);
    }

    // full until the first two grants leave the window, about 600 ms from now
    RateLimitExceededException full = rejection(() -> limited.rolling(timeline, 5));
    long fullAt = System.nanoTime();
    double retryAfter = full.getRetryAfter().toNanos() / 1e6;
    assertThat(retryAfter).isCloseTo(1000 - Timeline.millis(t0, fullAt), Offset.offset(LATE_MS));
    long freed1 = pollUntilGranted(timeline, () -> limited.rolling(timeline, 6));
    assertRetryAfterMatches(retryAfter, Timeline.millis(fullAt, freed1), 200);
    long freed1b = pollUntilGranted(timeline, () -> limited.rolling(timeline, 7));
    assertThat(Timeline.millis(freed1, freed1b)).as("both early grants expired").isLessThan(20.0);

    // then full again until the three later grants leave, about 400 ms later
    RateLimitExceededException again = rejection(() -> limited.rolling(timeline, 8));
    long againAt = System.nanoTime();
    long freed2 = pollUntilGranted(timeline, () -> limited.rolling(timeline, 9));
    assertRetryAfterMatches(
        again.getRetryAfter().toNanos() / 1e6, Timeline.millis(againAt, freed2), 200);
    assertThat(Timeline.millis(t400, freed2)).isCloseTo(1000.0, Offset.offset(LATE_MS));

    assertThat(timeline.grants()).extracting(Timeline.Grant::id).contains(0, 1, 2, 3, 4, 6, 7, 9);
    assertThat(timeline.maxInAnyWindow(Duration.ofMillis(1000 - (long) EARLY_MS))).isEqualTo(5);
  }

  @Test
  void aRejectedCallNeverRunsTheMethod() {
    Timeline timeline = new Timeline();
    for (int i = 0; i < 5; i++) {
      limited.rejecting(timeline, i);
    }
    assertThatThrownBy(() -> limited.rejecting(timeline, 5))
        .isInstanceOf(RateLimitExceededException.class);
    assertThat(timeline.grants()).extracting(Timeline.Grant::id).doesNotContain(5);
  }

  /**
   * The measured time until a call succeeded must agree with the {@code retryAfter} the rejection
   * announced: never sooner (a slack for the two clock reads), and not later than one tick.
   */
  private static void assertRetryAfterMatches(double retryAfter, double measured, double tick) {
    assertThat(measured)
        .as("ms until a call succeeded, after a rejection saying retryAfter=%.1f ms", retryAfter)
        .isBetween(retryAfter - EARLY_MS, retryAfter + Math.min(tick, LATE_MS));
  }

  private static RateLimitExceededException rejection(Runnable call) {
    try {
      call.run();
    } catch (RateLimitExceededException e) {
      return e;
    }
    return fail("expected a RateLimitExceededException");
  }

  /**
   * Calls every half millisecond until a call is let through; returns the grant's time as the
   * guarded method recorded it.
   */
  private static long pollUntilGranted(Timeline timeline, Runnable call) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    while (System.nanoTime() < deadline) {
      try {
        call.run();
        return last(timeline).nanos();
      } catch (RateLimitExceededException e) {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
      }
    }
    return fail("no permit within 3 s");
  }

  private static Timeline.Grant last(Timeline timeline) {
    List<Timeline.Grant> grants = timeline.grants();
    return grants.get(grants.size() - 1);
  }
}
