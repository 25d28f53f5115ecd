package dev.bulwark.core.rate;

import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;

/**
 * Generic cell rate algorithm. The whole state is the theoretical arrival time (TAT) of the next
 * permit; a burst of {@code permits} is allowed because a request is admitted while TAT lies less
 * than one window ahead of now.
 */
final class GcraState implements RateState {

  private long theoreticalArrival;

  GcraState(long now) {
    this.theoreticalArrival = now;
  }

  @Override
  public RateDecision reserve(RateSpec spec, long now, long maxWaitNanos) {
    long interval = spec.emissionIntervalNanos();
    long next = Math.max(theoreticalArrival, now) + interval;
    long allowedAt = next - spec.windowNanos();
    long delay = allowedAt - now;
    if (delay > maxWaitNanos) {
      return RateDecision.rejected(delay);
    }
    theoreticalArrival = next;
    return RateDecision.grantedAfter(delay);
  }
}
