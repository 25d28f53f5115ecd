package dev.bulwark.core.rate;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.concurrent.TimeUnit;

/**
 * Fixed windows aligned to the clock's epoch. Reservations made by waiting callers spill into the
 * following windows, so {@code count} may exceed the limit: slot {@code n} of the current window
 * lies {@code n / permits} windows ahead.
 *
 * <p>Persisted form: {@code [window, count]}. A clock that steps back into an earlier window is
 * clamped to the start of the stored one, so the window number never decreases; a stored window
 * more than a day ahead of the clock was numbered under a shorter window (a limit whose window was
 * lengthened while its state lived) and the limit starts afresh, as it does when its window was
 * shortened (the stored window then lies long past). The count carries over to other permits as it
 * stands: the slots reserved under the former permits are read as the new permits would place them.
 *
 * @param window the number of the current window since the epoch ({@link Long#MIN_VALUE}: none yet)
 * @param count the slots taken in it and, beyond {@code permits}, in the windows after it
 */
public record FixedWindowState(long window, long count) implements RateState {

  static final long NO_WINDOW = Long.MIN_VALUE;

  /**
   * How far behind its newest reading a clock may step back and still be taken for a lagging clock.
   * A stored window further ahead was numbered in a shorter window than the limit now has (window
   * {@code n} of a 1 s length, read as window {@code n} of a 60 s one, starts centuries from now):
   * the state was counted under another definition and is dropped.
   */
  static final long MAX_CLOCK_LAG_NANOS = TimeUnit.DAYS.toNanos(1);

  static final FixedWindowState INITIAL = new FixedWindowState(NO_WINDOW, 0);

  public FixedWindowState {
    if (count < 0) {
      throw new IllegalArgumentException("FIXED count must not be negative: " + count);
    }
  }

  @Override
  public RateLimitType type() {
    return RateLimitType.FIXED;
  }

  @Override
  public ReservationOutcome reserve(RateSpec spec, long now, long maxWait) {
    if (spec.type() != RateLimitType.FIXED) {
      return RateState.initial(spec.type()).reserve(spec, now, maxWait);
    }
    long length = spec.windowNanos();
    long permits = spec.permits();
    long current = Math.floorDiv(now, length);
    long start = window;
    long taken = count;
    if (start != NO_WINDOW && current < start) {
      if (start - current > MAX_CLOCK_LAG_NANOS / length + 1) {
        start = NO_WINDOW; // counted in longer windows: start afresh
      } else {
        current = start;
        now = start * length;
      }
    }
    if (current != start) {
      long elapsed = start == NO_WINDOW ? Long.MAX_VALUE : current - start;
      taken = elapsed >= taken / permits + 1 ? 0 : Math.max(0, taken - elapsed * permits);
      start = current;
    }
    long slotWindow = start + taken / permits;
    long delay = Math.max(0, slotWindow * length - now);
    if (delay > maxWait) {
      return new ReservationOutcome(RateDecision.rejected(delay), this);
    }
    return new ReservationOutcome(
        RateDecision.grantedAfter(delay), new FixedWindowState(start, taken + 1));
  }

  @Override
  public long[] toLongs() {
    return new long[] {window, count};
  }

  static FixedWindowState fromLongs(long[] longs) {
    if (longs.length != 2) {
      throw new IllegalArgumentException(
          "A FIXED rate state is two longs (window, count), not " + longs.length);
    }
    return new FixedWindowState(longs[0], longs[1]);
  }
}
