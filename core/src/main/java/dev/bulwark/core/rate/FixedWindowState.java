package dev.bulwark.core.rate;

import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;

/**
 * Fixed windows aligned to the clock's epoch. Reservations made by waiting callers spill into the
 * following windows, so {@code count} may exceed the limit: slot {@code n} of the current window
 * lies {@code n / permits} windows ahead.
 */
final class FixedWindowState implements RateState {

  private long window = Long.MIN_VALUE;
  private long count;

  @Override
  public RateDecision reserve(RateSpec spec, long now, long maxWaitNanos) {
    long length = spec.windowNanos();
    long current = Math.floorDiv(now, length);
    if (current != window) {
      long elapsed = window == Long.MIN_VALUE ? Long.MAX_VALUE : current - window;
      long carried = elapsed >= count / spec.permits() + 1 ? 0 : count - elapsed * spec.permits();
      count = Math.max(0, carried);
      window = current;
    }
    long slotWindow = window + count / spec.permits();
    long delay = Math.max(0, slotWindow * length - now);
    if (delay > maxWaitNanos) {
      return RateDecision.rejected(delay);
    }
    count++;
    return RateDecision.grantedAfter(delay);
  }
}
