package dev.bulwark.core.rate;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;

/**
 * Generic cell rate algorithm. The whole state is the theoretical arrival time (TAT) of the next
 * permit; a burst of {@code permits} is allowed because a request is admitted while TAT lies less
 * than one window ahead of now.
 *
 * <p>The emission interval {@code window / permits} is rarely a whole number of ticks, and rounding
 * it would drift by up to one tick per permit. So TAT is kept exact, as {@code theoreticalArrival +
 * remainder / permits}: the Redis script keeps the same pair in microseconds, and both agree to
 * within one tick however long a limit runs.
 *
 * <p>Persisted form: {@code [theoreticalArrival, remainder]}. A clock that steps back needs no
 * clamp here: TAT only grows, and an earlier {@code now} only lengthens the delay.
 *
 * @param theoreticalArrival the whole part of TAT
 * @param remainder the fraction of TAT, in {@code 1 / permits} ticks ({@code 0 <= remainder <
 *     permits}; a larger one, left by a definition with more permits, counts as one whole tick)
 */
public record GcraState(long theoreticalArrival, long remainder) implements RateState {

  static final GcraState INITIAL = new GcraState(0, 0);

  public GcraState {
    if (remainder < 0) {
      throw new IllegalArgumentException("GCRA remainder must not be negative: " + remainder);
    }
  }

  @Override
  public RateLimitType type() {
    return RateLimitType.SMOOTH;
  }

  @Override
  public ReservationOutcome reserve(RateSpec spec, long now, long maxWait) {
    if (spec.type() != RateLimitType.SMOOTH) {
      return RateState.initial(spec.type()).reserve(spec, now, maxWait);
    }
    long permits = spec.permits();
    long whole = theoreticalArrival;
    long fraction = remainder;
    if (fraction >= permits) {
      whole++;
      fraction = 0;
    }
    if (now > whole || (now == whole && fraction == 0)) {
      whole = now;
      fraction = 0;
    }
    whole += spec.windowNanos() / permits;
    fraction += spec.windowNanos() % permits;
    if (fraction >= permits) {
      whole++;
      fraction -= permits;
    }
    // the slot starts one window before the new TAT; rounded up to a whole tick
    long delay = whole - spec.windowNanos() - now + (fraction > 0 ? 1 : 0);
    if (delay > maxWait) {
      return new ReservationOutcome(RateDecision.rejected(delay), this);
    }
    return new ReservationOutcome(RateDecision.grantedAfter(delay), new GcraState(whole, fraction));
  }

  @Override
  public long[] toLongs() {
    return new long[] {theoreticalArrival, remainder};
  }

  static GcraState fromLongs(long[] longs) {
    if (longs.length != 2) {
      throw new IllegalArgumentException(
          "A SMOOTH rate state is two longs (arrival, remainder), not " + longs.length);
    }
    return new GcraState(longs[0], longs[1]);
  }
}
