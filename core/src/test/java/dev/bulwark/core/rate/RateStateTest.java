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

  @Test
  void smoothGivesABurstThenOnePermitPerInterval() {
    RateSpec spec = spec(RateLimitType.SMOOTH);
    RateState state = RateState.create(spec.type(), START);
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
    RateState state = RateState.create(spec.type(), START);
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
    RateState state = RateState.create(spec.type(), START);
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
    RateState state = RateState.create(spec.type(), START);
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
    RateState state = RateState.create(spec.type(), START);
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
    RateState state = RateState.create(spec.type(), START);
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
    RateState state = RateState.create(spec.type(), START);
    for (int i = 0; i < 5; i++) {
      state.reserve(spec, START + i * 100 * MS, 0);
    }
    RateDecision rejected = state.reserve(spec, START + 500 * MS, 0);
    assertThat(rejected.granted()).isFalse();
    assertThat(rejected.delayNanos()).isEqualTo(500 * MS);
    assertThat(state.reserve(spec, START + SECOND, 0).granted()).isTrue();
  }
}
