package dev.bulwark.core.rate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The algorithms against a clock the test moves, so every figure is exact. */
class RateStateTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long SECOND = 1000 * MS;
  private static final long START = 1_000_000 * SECOND; // window-aligned

  private static RateSpec spec(RateLimitType type) {
    return new RateSpec("test", type, 5, SECOND);
  }

  /** One limit's state as a store keeps it: replaced by the next state of every reservation. */
  static final class Limit {

    RateState state;

    Limit(RateLimitType type) {
      this.state = RateState.initial(type);
    }

    RateDecision reserve(RateSpec spec, long now, long maxWait) {
      ReservationOutcome outcome = state.reserve(spec, now, maxWait);
      state = outcome.next();
      return outcome.decision();
    }
  }

  @Test
  void smoothGivesABurstThenOnePermitPerInterval() {
    RateSpec spec = spec(RateLimitType.SMOOTH);
    Limit state = new Limit(spec.type());
    for (int i = 0; i < 5; i++) {
      assertThat(state.reserve(spec, START, 0).granted()).isTrue();
    }
    RateDecision sixth = state.reserve(spec, START, 0);
    assertThat(sixth.granted()).isFalse();
    assertThat(sixth.delayNanos()).isEqualTo(200 * MS);
    assertThat(state.reserve(spec, START + 199 * MS, 0).granted()).isFalse();
    assertThat(state.reserve(spec, START + 200 * MS, 0).granted()).isTrue();
    assertThat(state.reserve(spec, START + 200 * MS, 0).granted()).isFalse();
    assertThat(state.reserve(spec, START + 400 * MS, 0).granted()).isTrue();
  }

  @Test
  void smoothReservesTheNextSlotsInOrder() {
    RateSpec spec = spec(RateLimitType.SMOOTH);
    Limit state = new Limit(spec.type());
    for (int i = 0; i < 5; i++) {
      state.reserve(spec, START, 0);
    }
    List<Long> delays = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      delays.add(state.reserve(spec, START, SECOND).delayNanos());
    }
    assertThat(delays).containsExactly(200 * MS, 400 * MS, 600 * MS);
    // a caller that may wait less than its slot is rejected and reserves nothing
    RateDecision impatient = state.reserve(spec, START, 100 * MS);
    assertThat(impatient.granted()).isFalse();
    assertThat(impatient.delayNanos()).isEqualTo(800 * MS);
    assertThat(state.reserve(spec, START, SECOND).delayNanos()).isEqualTo(800 * MS);
  }

  @Test
  void smoothIdleTimeRefillsOnlyUpToTheBurst() {
    RateSpec spec = spec(RateLimitType.SMOOTH);
    Limit state = new Limit(spec.type());
    long later = START + 60 * SECOND;
    int granted = 0;
    while (state.reserve(spec, later, 0).granted()) {
      granted++;
    }
    assertThat(granted).isEqualTo(5);
  }

  @Test
  void fixedCountsPerAlignedWindowAndResets() {
    RateSpec spec = spec(RateLimitType.FIXED);
    Limit state = new Limit(spec.type());
    long mid = START + 700 * MS;
    for (int i = 0; i < 5; i++) {
      assertThat(state.reserve(spec, mid, 0).granted()).isTrue();
    }
    RateDecision rejected = state.reserve(spec, mid, 0);
    assertThat(rejected.granted()).isFalse();
    assertThat(rejected.delayNanos()).isEqualTo(300 * MS); // until the next aligned window
    long next = START + SECOND;
    for (int i = 0; i < 5; i++) {
      assertThat(state.reserve(spec, next, 0).granted()).isTrue();
    }
    assertThat(state.reserve(spec, next, 0).granted()).isFalse();
  }

  @Test
  void fixedReservationsSpillIntoLaterWindows() {
    RateSpec spec = spec(RateLimitType.FIXED);
    Limit state = new Limit(spec.type());
    for (int i = 0; i < 5; i++) {
      state.reserve(spec, START, 0);
    }
    for (int i = 0; i < 5; i++) {
      assertThat(state.reserve(spec, START, 2 * SECOND).delayNanos()).isEqualTo(SECOND);
    }
    assertThat(state.reserve(spec, START, 2 * SECOND).delayNanos()).isEqualTo(2 * SECOND);
    // the next window is already full with the reservations
    assertThat(state.reserve(spec, START + SECOND, 0).granted()).isFalse();
  }

  @Test
  void rollingNeverAllowsMoreThanTheLimitInAnyWindow() {
    RateSpec spec = spec(RateLimitType.ROLLING);
    Limit state = new Limit(spec.type());
    List<Long> grants = new ArrayList<>();
    // callers every 50 ms for 5 s, each willing to wait 300 ms
    for (long t = START; t < START + 5 * SECOND; t += 50 * MS) {
      RateDecision decision = state.reserve(spec, t, 300 * MS);
      if (decision.granted()) {
        grants.add(t + decision.delayNanos());
      }
    }
    for (int i = 0; i + 5 < grants.size(); i++) {
      assertThat(grants.get(i + 5) - grants.get(i))
          .as("six grants within one window")
          .isGreaterThanOrEqualTo(SECOND);
    }
    // five at the start of each of the six windows the callers span (0 s … 5 s)
    assertThat(grants).hasSize(30);
  }

  @Test
  void rollingRetryAfterIsWhenTheOldestGrantLeavesTheWindow() {
    RateSpec spec = spec(RateLimitType.ROLLING);
    Limit state = new Limit(spec.type());
    for (int i = 0; i < 5; i++) {
      state.reserve(spec, START + i * 100 * MS, 0);
    }
    RateDecision rejected = state.reserve(spec, START + 500 * MS, 0);
    assertThat(rejected.granted()).isFalse();
    assertThat(rejected.delayNanos()).isEqualTo(500 * MS);
    assertThat(state.reserve(spec, START + SECOND, 0).granted()).isTrue();
  }

  @Test
  void smoothKeepsAnIntervalThatIsNotWholeExact() {
    // 3 permits a second: the interval is 333 333 333 1/3 ns; 3000 permits later TAT has moved by
    // exactly 1000 s, where a rounded interval would be 1 µs off
    RateSpec spec = new RateSpec("test", RateLimitType.SMOOTH, 3, SECOND);
    RateState state = RateState.initial(spec.type());
    for (int i = 0; i < 3000; i++) {
      ReservationOutcome outcome = state.reserve(spec, START, Long.MAX_VALUE);
      assertThat(outcome.decision().granted()).isTrue();
      state = outcome.next();
    }
    assertThat(state).isEqualTo(new GcraState(START + 1000 * SECOND, 0));
    ReservationOutcome after = state.reserve(spec, START, Long.MAX_VALUE);
    // the slot of permit 3001 starts 999 s + 1/3 interval after START, rounded up to a whole ns
    assertThat(after.decision().delayNanos()).isEqualTo(999 * SECOND + 333_333_334);
    assertThat(after.next()).isEqualTo(new GcraState(START + 1000 * SECOND + 333_333_333, 1));
  }

  @Test
  void reserveIsPureAndAnOlderStateCanStillBeExtended() {
    RateSpec spec = new RateSpec("test", RateLimitType.ROLLING, 3, SECOND);
    RateState start = RateState.initial(spec.type());
    RateState one = start.reserve(spec, START, 0).next();
    long[] before = one.toLongs();
    ReservationOutcome newer = one.reserve(spec, START + MS, 0);
    // the same state asked again at another instant: the newer reservation did not change it
    ReservationOutcome branch = one.reserve(spec, START + 2 * MS, 0);
    assertThat(one.toLongs()).isEqualTo(before);
    assertThat(newer.next().toLongs()).containsExactly(START, START + MS);
    assertThat(branch.next().toLongs()).containsExactly(START, START + 2 * MS);
    assertThat(one.reserve(spec, START + MS, 0)).isEqualTo(newer);
  }

  @Test
  void aStateOfAnotherTypeIsReplacedByANewOne() {
    RateSpec smooth = spec(RateLimitType.SMOOTH);
    RateSpec rolling = spec(RateLimitType.ROLLING);
    RateState gcra = RateState.initial(smooth.type()).reserve(smooth, START, 0).next();
    ReservationOutcome outcome = gcra.reserve(rolling, START, 0);
    assertThat(outcome.decision()).isEqualTo(RateDecision.NOW);
    assertThat(outcome.next()).isInstanceOf(RollingWindowState.class);
    assertThat(outcome.next().toLongs()).containsExactly(START);
  }

  // A server clock that steps back (failover to a lagging node) must not move a state backwards.

  @Test
  void rollingClampsAClockThatStepsBackToTheNewestStartedGrant() {
    RateSpec spec = new RateSpec("test", RateLimitType.ROLLING, 3, SECOND);
    Limit limit = new Limit(spec.type());
    long late = START + 10 * SECOND;
    long early = START + 5 * SECOND;
    assertThat(limit.reserve(spec, late, 0)).isEqualTo(RateDecision.NOW);
    // the clock now reads 5 s earlier: as if it stood still at the newest grant
    assertThat(limit.reserve(spec, early, 0)).isEqualTo(RateDecision.NOW);
    assertThat(limit.reserve(spec, early, 0)).isEqualTo(RateDecision.NOW);
    assertThat(limit.state.toLongs()).containsExactly(late, late, late);
    // full: a waiting caller gets the slot one window after the oldest grant, 1 s after "now"
    assertThat(limit.reserve(spec, early, 10 * SECOND))
        .isEqualTo(RateDecision.grantedAfter(SECOND));
    assertThat(limit.state.toLongs()).containsExactly(late, late, late, late + SECOND);
    // once the clock has caught up it counts from its own time again
    assertThat(limit.reserve(spec, late + 500 * MS, 0)).isEqualTo(RateDecision.rejected(500 * MS));
    assertThat(limit.reserve(spec, late + SECOND, 0)).isEqualTo(RateDecision.NOW);
    assertThat(limit.state.toLongs()).isSorted();
  }

  @Test
  void rollingGivenMorePermitsKeepsTheSlotsItReservedAndCountsFromTheRealClock() {
    RateSpec one = new RateSpec("test", RateLimitType.ROLLING, 1, 100 * MS);
    RateSpec two = new RateSpec("test", RateLimitType.ROLLING, 2, 100 * MS);
    Limit limit = new Limit(RateLimitType.ROLLING);
    assertThat(limit.reserve(one, START, 0)).isEqualTo(RateDecision.NOW);
    assertThat(limit.reserve(one, START, SECOND)).isEqualTo(RateDecision.grantedAfter(100 * MS));
    // redefined to 2 per 100 ms: the reserved slot at +100 ms is no grant that started, so the
    // clock is not moved to it; the new permit's slot lies a window after the grant at +0
    assertThat(limit.reserve(two, START + 25 * MS, SECOND))
        .isEqualTo(RateDecision.grantedAfter(75 * MS));
    // two slots at +100 ms already: the next one a window after the slot at +100 ms
    assertThat(limit.reserve(two, START + 26 * MS, SECOND))
        .isEqualTo(RateDecision.grantedAfter(174 * MS));
    assertThat(limit.state.toLongs())
        .containsExactly(START, START + 100 * MS, START + 100 * MS, START + 200 * MS);
  }

  @Test
  void rollingSlotsStayInCallOrderWhenARedefinitionWouldPlaceOneBeforeAReservedSlot() {
    RateSpec two = new RateSpec("test", RateLimitType.ROLLING, 2, 100 * MS);
    RateSpec four = new RateSpec("test", RateLimitType.ROLLING, 4, 100 * MS);
    Limit limit = new Limit(RateLimitType.ROLLING);
    limit.reserve(two, START, 0);
    limit.reserve(two, START, 0);
    limit.reserve(two, START, SECOND);
    limit.reserve(two, START, SECOND);
    assertThat(limit.reserve(two, START, SECOND)).isEqualTo(RateDecision.grantedAfter(200 * MS));
    // 4 per window would allow a slot at +100 ms, before the one reserved at +200 ms
    assertThat(limit.reserve(four, START + 10 * MS, SECOND))
        .isEqualTo(RateDecision.grantedAfter(190 * MS));
    assertThat(limit.state.toLongs()).isSorted();
  }

  @Test
  void fixedClampsAClockThatStepsBackToTheStoredWindow() {
    RateSpec spec = new RateSpec("test", RateLimitType.FIXED, 2, SECOND);
    Limit limit = new Limit(spec.type());
    long inWindowTen = START + 10 * SECOND + 200 * MS;
    assertThat(limit.reserve(spec, inWindowTen, 0)).isEqualTo(RateDecision.NOW);
    assertThat(limit.reserve(spec, inWindowTen, 0)).isEqualTo(RateDecision.NOW);
    FixedWindowState full = (FixedWindowState) limit.state;
    // 1.7 s earlier, in window 8: still window 10, whose next slot is 1 s after its start
    long inWindowEight = START + 8 * SECOND + 500 * MS;
    assertThat(limit.reserve(spec, inWindowEight, 0)).isEqualTo(RateDecision.rejected(SECOND));
    assertThat(limit.reserve(spec, inWindowEight, 2 * SECOND))
        .isEqualTo(RateDecision.grantedAfter(SECOND));
    assertThat(limit.state).isEqualTo(new FixedWindowState(full.window(), 3));
  }

  @Test
  void fixedRedefinedWithALongerWindowStartsAfreshInsteadOfWaitingForItsOldWindowNumber() {
    RateSpec perSecond = new RateSpec("test", RateLimitType.FIXED, 2, SECOND);
    RateSpec perMinute = new RateSpec("test", RateLimitType.FIXED, 2, 60 * SECOND);
    Limit limit = new Limit(RateLimitType.FIXED);
    limit.reserve(perSecond, START, 0);
    limit.reserve(perSecond, START, 0);
    // window START / 1 s, read as a minute's number, would start decades from now
    long now = START + 100 * MS;
    assertThat(limit.reserve(perMinute, now, 0)).isEqualTo(RateDecision.NOW);
    assertThat(limit.reserve(perMinute, now, 0)).isEqualTo(RateDecision.NOW);
    long nextMinute = (Math.floorDiv(now, 60 * SECOND) + 1) * 60 * SECOND;
    assertThat(limit.reserve(perMinute, now, 0)).isEqualTo(RateDecision.rejected(nextMinute - now));
    assertThat(limit.state.toLongs()).containsExactly(Math.floorDiv(now, 60 * SECOND), 2);
  }

  @Test
  void fixedTakesAClockADayBehindForALaggingOne() {
    RateSpec spec = new RateSpec("test", RateLimitType.FIXED, 1, SECOND);
    Limit limit = new Limit(RateLimitType.FIXED);
    limit.reserve(spec, START + 86_400 * SECOND, 0);
    assertThat(limit.reserve(spec, START + SECOND, 0)).isEqualTo(RateDecision.rejected(SECOND));
  }

  @Test
  void smoothNeedsNoClampItsArrivalTimeNeverGoesBack() {
    RateSpec spec = spec(RateLimitType.SMOOTH);
    Limit limit = new Limit(spec.type());
    long late = START + 10 * SECOND;
    for (int i = 0; i < 5; i++) {
      limit.reserve(spec, late, 0);
    }
    GcraState full = (GcraState) limit.state;
    assertThat(full.theoreticalArrival()).isEqualTo(late + SECOND);
    // 1 s earlier the next permit is 1 s further away; nothing is granted, nothing moves back
    assertThat(limit.reserve(spec, late - SECOND, 0))
        .isEqualTo(RateDecision.rejected(SECOND + 200 * MS));
    assertThat(limit.state).isEqualTo(full);
    assertThat(limit.reserve(spec, late - SECOND, 2 * SECOND))
        .isEqualTo(RateDecision.grantedAfter(SECOND + 200 * MS));
    assertThat(((GcraState) limit.state).theoreticalArrival()).isEqualTo(late + SECOND + 200 * MS);
  }
}
