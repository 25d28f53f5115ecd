package dev.bulwark.core.rate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.tck.property.Gen;
import dev.bulwark.tck.property.Property;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rate arithmetic of every type against what must hold for any definition and any calls on a
 * clock that never steps back: never more grants in an interval than the burst plus the rate times
 * its length; a rejection's retry-after is exact; a state read back from its persisted form is the
 * same state; {@link RateState#available} agrees with {@link RateState#reserve}.
 */
class RateArithmeticPropertiesTest {

  /** Far from the epoch, as a store's clock is; fixed windows align to the epoch. */
  private static final long START = 1_700_000_000_000_000_000L;

  /** One call: how long after the previous one it comes, and how long it may wait. */
  record Call(long gap, long maxWait) {}

  /** A definition and calls on it, the first at {@code start}. */
  record Scenario(RateSpec spec, long start, List<Call> calls) {

    /** Runs the calls from the initial state; returns every reservation's time and decision. */
    List<Taken> run() {
      List<Taken> taken = new ArrayList<>();
      RateState state = RateState.initial(spec.type());
      long now = start;
      for (Call call : calls) {
        now += call.gap();
        ReservationOutcome outcome = state.reserve(spec, now, call.maxWait());
        taken.add(new Taken(now, call.maxWait(), outcome.decision(), state, outcome.next()));
        state = outcome.next();
      }
      return taken;
    }

    RateState finalState() {
      List<Taken> taken = run();
      return taken.isEmpty() ? RateState.initial(spec.type()) : taken.get(taken.size() - 1).after();
    }

    long end() {
      return start + calls.stream().mapToLong(Call::gap).sum();
    }
  }

  /** One reservation as it happened. */
  record Taken(long now, long maxWait, RateDecision decision, RateState before, RateState after) {}

  static Gen<RateSpec> specs() {
    Gen<RateLimitType> types = Gen.of(RateLimitType.class);
    Gen<Integer> permitCounts = Gen.ints(1, 20);
    // from a microsecond to ten seconds, mostly not a multiple of the permits
    Gen<Long> windows = Gen.longs(1_000, 10_000_000_000L);
    return draws ->
        new RateSpec("prop", types.next(draws), permitCounts.next(draws), windows.next(draws));
  }

  static Gen<Scenario> scenarios() {
    return specs()
        .flatMap(
            spec -> {
              Gen<Long> offsets = Gen.longs(0, spec.windowNanos() * 3);
              Gen<List<Call>> callLists = calls(spec).list(0, 60);
              return draws ->
                  new Scenario(spec, START + offsets.next(draws), callLists.next(draws));
            });
  }

  /** Gaps from none to two windows, often zero or tiny; waits from none to two windows. */
  private static Gen<Call> calls(RateSpec spec) {
    long window = spec.windowNanos();
    Gen<Long> gaps =
        Gen.frequency(
            Gen.Weighted.value(3, 0L),
            Gen.Weighted.of(3, Gen.longs(0, Math.max(1, window / spec.permits()))),
            Gen.Weighted.of(2, Gen.longs(0, 2 * window)));
    Gen<Long> waits =
        Gen.frequency(Gen.Weighted.value(3, 0L), Gen.Weighted.of(2, Gen.longs(0, 2 * window)));
    return draws -> new Call(gaps.next(draws), waits.next(draws));
  }

  @Test
  void grantsInAnyIntervalNeverExceedTheBurstPlusTheRateTimesItsLength() {
    Property.forAll(
        300, scenarios(), RateArithmeticPropertiesTest::grantsNeverExceedTheBurstPlusTheRate);
  }

  private static void grantsNeverExceedTheBurstPlusTheRate(Scenario scenario) {
    RateSpec spec = scenario.spec();
    List<Long> slots = new ArrayList<>();
    for (Taken taken : scenario.run()) {
      RateDecision decision = taken.decision();
      if (decision.granted()) {
        assertThat(decision.delayNanos())
            .as("delay within the wait")
            .isBetween(0L, taken.maxWait());
        slots.add(taken.now() + decision.delayNanos());
      } else {
        assertThat(decision.delayNanos())
            .as("retry-after beyond the wait")
            .isGreaterThan(taken.maxWait());
      }
    }
    slots.sort(null);
    for (int i = 0; i < slots.size(); i++) {
      for (int j = i; j < slots.size(); j++) {
        long length = slots.get(j) - slots.get(i);
        assertThat((long) (j - i + 1))
            .as("%s grants within %s ns on %s: %s", j - i + 1, length, spec, slots)
            .isLessThanOrEqualTo(mostGrantsWithin(spec, length));
      }
    }
    if (spec.type() == RateLimitType.FIXED) {
      // and within each window of the epoch, no more than the permits
      for (int i = 0; i + spec.permits() < slots.size(); i++) {
        assertThat(Math.floorDiv(slots.get(i + spec.permits()), spec.windowNanos()))
            .as("%s grants in one aligned window on %s: %s", spec.permits() + 1, spec, slots)
            .isGreaterThan(Math.floorDiv(slots.get(i), spec.windowNanos()));
      }
    }
  }

  /** The most grants a limit may give with slots in a closed interval of {@code length} ns. */
  private static long mostGrantsWithin(RateSpec spec, long length) {
    long permits = spec.permits();
    long window = spec.windowNanos();
    return switch (spec.type()) {
      // a burst of permits, then one per emission interval; slots rounded up to whole ticks
      case SMOOTH -> permits + Math.floorDiv((length + 1) * permits, window);
      // any window-long stretch of the interval holds at most the permits
      case ROLLING -> permits * (length / window + 1);
      // the interval touches at most length / window + 2 aligned windows
      case FIXED -> permits * (length / window + 2);
    };
  }

  @Test
  void smoothSlotsAfterTheBurstAreExactMultiplesOfTheIntervalRoundedUp() {
    Property.forAll(
        300,
        specs(),
        Gen.longs(0, 100_000_000_000L),
        RateArithmeticPropertiesTest::smoothSlotsAreExactMultiples);
  }

  private static void smoothSlotsAreExactMultiples(RateSpec anySpec, long offset) {
    RateSpec spec =
        new RateSpec("prop", RateLimitType.SMOOTH, anySpec.permits(), anySpec.windowNanos());
    long now = START + offset;
    RateState state = RateState.initial(RateLimitType.SMOOTH);
    for (int k = 0; k < 3 * spec.permits() + 5; k++) {
      ReservationOutcome outcome = state.reserve(spec, now, Long.MAX_VALUE);
      // slot k lies (k + 1 - permits) emission intervals ahead: never earlier, not a tick later
      long exact = Math.max(0, (k + 1 - spec.permits()) * spec.windowNanos());
      long slot = exact / spec.permits() + (exact % spec.permits() == 0 ? 0 : 1);
      assertThat(outcome.decision())
          .as("reservation %s on %s", k, spec)
          .isEqualTo(RateDecision.grantedAfter(slot));
      state = outcome.next();
    }
  }

  @Test
  void aRejectionsRetryAfterIsExact() {
    Property.forAll(300, scenarios(), gapsAfter(), RateArithmeticPropertiesTest::retryAfterIsExact);
  }

  private static void retryAfterIsExact(Scenario scenario, long gap) {
    RateSpec spec = scenario.spec();
    RateState state = scenario.finalState();
    long now = scenario.end() + gap;
    RateDecision first = state.reserve(spec, now, 0).decision();
    if (first.granted()) {
      return;
    }
    long retryAfter = first.delayNanos();
    assertThat(retryAfter).as("retry-after of a rejection on %s", spec).isPositive();
    assertThat(state.reserve(spec, now + retryAfter, 0).decision())
        .as("retrying after %s ns on %s", retryAfter, spec)
        .isEqualTo(RateDecision.NOW);
    assertThat(state.reserve(spec, now + retryAfter - 1, 0).decision().granted())
        .as("retrying 1 ns before the retry-after of %s ns on %s", retryAfter, spec)
        .isFalse();
    // a caller that may wait exactly that long is granted the slot, one that may not is not
    assertThat(state.reserve(spec, now, retryAfter).decision())
        .as("waiting %s ns on %s", retryAfter, spec)
        .isEqualTo(RateDecision.grantedAfter(retryAfter));
    assertThat(state.reserve(spec, now, retryAfter - 1).decision())
        .as("waiting 1 ns less than %s ns on %s", retryAfter, spec)
        .isEqualTo(RateDecision.rejected(retryAfter));
  }

  static Gen<Long> gapsAfter() {
    return Gen.frequency(Gen.Weighted.value(3, 0L), Gen.Weighted.of(1, Gen.longs(0, 1_000_000)));
  }

  @Test
  void aStateReadBackFromItsLongsIsTheSameStateAndDecidesAlike() {
    Property.forAll(
        300, scenarios(), scenarios(), RateArithmeticPropertiesTest::readBackDecidesAlike);
  }

  private static void readBackDecidesAlike(Scenario scenario, Scenario next) {
    RateSpec spec = scenario.spec();
    RateState state = scenario.finalState();
    RateState restored = RateState.fromLongs(spec.type(), state.toLongs());
    assertThat(restored).isEqualTo(state).hasSameHashCodeAs(state);
    assertThat(restored.toLongs()).isEqualTo(state.toLongs());
    // the same calls on both give the same decisions and states
    long now = scenario.end();
    RateState a = state;
    RateState b = restored;
    for (Call call : next.calls()) {
      now += call.gap() % (4 * spec.windowNanos());
      ReservationOutcome outcomeA = a.reserve(spec, now, call.maxWait() % (4 * spec.windowNanos()));
      ReservationOutcome outcomeB = b.reserve(spec, now, call.maxWait() % (4 * spec.windowNanos()));
      assertThat(outcomeB.decision()).isEqualTo(outcomeA.decision());
      assertThat(outcomeB.next()).isEqualTo(outcomeA.next());
      a = outcomeA.next();
      b = outcomeB.next();
    }
  }

  @Test
  void availableIsHowManyReservationsInARowAreGrantedWithoutWaiting() {
    Property.forAll(
        300, scenarios(), gapsAfter(), RateArithmeticPropertiesTest::availableIsWhatIsGranted);
  }

  private static void availableIsWhatIsGranted(Scenario scenario, long gap) {
    RateSpec spec = scenario.spec();
    RateState state = scenario.finalState();
    long now = scenario.end() + gap;
    int available = state.available(spec, now);
    assertThat(available).isBetween(0, spec.permits());
    assertThat(state.available(spec, now)).as("available() takes nothing").isEqualTo(available);
    RateState taking = state;
    for (int i = 0; i < available; i++) {
      ReservationOutcome outcome = taking.reserve(spec, now, 0);
      assertThat(outcome.decision())
          .as("reservation %s of %s available", i + 1, available)
          .isEqualTo(RateDecision.NOW);
      taking = outcome.next();
    }
    assertThat(taking.available(spec, now)).as("none left after taking them").isZero();
    if (available < spec.permits()) {
      assertThat(taking.reserve(spec, now, 0).decision().granted())
          .as("one more than the %s available", available)
          .isFalse();
    }
  }
}
