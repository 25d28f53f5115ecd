package dev.bulwark.core.rate;

import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;

/**
 * A sliding log of grant times, kept sorted (reservations are appended at future times): a permit
 * is granted at the first instant when fewer than {@code permits} grants lie in the window ending
 * there. The log holds at most {@code permits} entries plus the reservations of waiting callers.
 */
final class RollingWindowState implements RateState {

  private long[] times = new long[8];
  private int head;
  private int size;

  @Override
  public RateDecision reserve(RateSpec spec, long now, long maxWaitNanos) {
    long window = spec.windowNanos();
    while (size > 0 && times[head] <= now - window) {
      head = (head + 1) % times.length;
      size--;
    }
    if (size < spec.permits()) {
      append(now);
      return RateDecision.NOW;
    }
    long at = times[(head + size - spec.permits()) % times.length] + window;
    long delay = at - now;
    if (delay > maxWaitNanos) {
      return RateDecision.rejected(delay);
    }
    append(at);
    return RateDecision.grantedAfter(delay);
  }

  private void append(long time) {
    if (size == times.length) {
      long[] grown = new long[times.length * 2];
      for (int i = 0; i < size; i++) {
        grown[i] = times[(head + i) % times.length];
      }
      times = grown;
      head = 0;
    }
    times[(head + size) % times.length] = time;
    size++;
  }
}
