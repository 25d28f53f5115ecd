package dev.bulwark.core.rate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateSpec;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A rolling step reads a handful of a log's positions, not the log: what a store whose log is a
 * table pays in rows per reservation.
 */
class RollingStepReadsTest {

  private static final long SECOND = 1_000_000_000L;
  private static final long START = 1_000_000 * SECOND;

  /** {@code size} times one apart from {@code first}, noting each position read. */
  private static final class CountingLog implements GrantTimes {
    final int size;
    final long first;
    final Set<Integer> read = new HashSet<>();

    CountingLog(int size, long first) {
      this.size = size;
      this.first = first;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public long get(int index) {
      read.add(index);
      return first + index;
    }
  }

  @Test
  void aLongLogWithNothingExpiredIsReadAtAFewPositions() {
    RateSpec spec = new RateSpec("long", RateLimitType.ROLLING, 1_000_000, 3600 * SECOND);
    CountingLog log = new CountingLog(100_000, START);

    RollingStep step = RollingWindowState.step(log, spec, START + 100_000, 0);

    assertThat(step.decision().granted()).isTrue();
    assertThat(step.expired()).isZero();
    assertThat(log.read).hasSizeLessThanOrEqualTo(2);
  }

  @Test
  void expiredTimesCostTheLogarithmOfTheirNumber() {
    RateSpec spec = new RateSpec("expiring", RateLimitType.ROLLING, 1_000_000, SECOND);
    CountingLog log = new CountingLog(100_000, START);
    // the first 65 536 times have left the window ending at now
    long now = START + 65_535 + SECOND;

    RollingStep step = RollingWindowState.step(log, spec, now, 0);

    assertThat(step.expired()).isEqualTo(65_536);
    assertThat(log.read).hasSizeLessThanOrEqualTo(2 + 2 * 17);
  }

  @Test
  void aFullLogIsReadAtThePositionPermitsBeforeItsNewest() {
    RateSpec spec = new RateSpec("full", RateLimitType.ROLLING, 1000, 3600 * SECOND);
    CountingLog log = new CountingLog(1000, START);

    RollingStep step = RollingWindowState.step(log, spec, START + 1000, 0);

    assertThat(step.decision().granted()).isFalse();
    // the oldest time leaves the window one window after it was granted
    assertThat(step.decision().delayNanos()).isEqualTo(START + 3600 * SECOND - (START + 1000));
    assertThat(log.read).hasSizeLessThanOrEqualTo(3);
  }

  @Test
  void theStepIsWhatReserveDoesToTheLog() {
    RateSpec spec = new RateSpec("same", RateLimitType.ROLLING, 3, SECOND);
    RateState state = RateState.initial(RateLimitType.ROLLING);
    long now = START;
    for (int call = 0; call < 200; call++) {
      now += (call * 7919L) % (SECOND / 2);
      long maxWait = call % 3 == 0 ? SECOND : 0;
      GrantLog before = ((RollingWindowState) state).grants();
      RollingStep step = RollingWindowState.step(before, spec, now, maxWait);
      ReservationOutcome outcome = state.reserve(spec, now, maxWait);
      assertThat(step.decision()).isEqualTo(outcome.decision());
      GrantLog expected = before.withoutOldest(step.expired());
      if (step.decision().granted()) {
        expected = expected.append(step.slot());
      }
      assertThat(((RollingWindowState) outcome.next()).grants()).isEqualTo(expected);
      state = outcome.next();
    }
  }
}
