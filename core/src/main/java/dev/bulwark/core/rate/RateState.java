package dev.bulwark.core.rate;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;

/**
 * The state of one rate limit and its algorithm: the arithmetic lives here once, and a store only
 * has to keep the state and call {@link #reserve} atomically against its own clock.
 */
public interface RateState {

  /**
   * Takes a permit at {@code now}, or reserves the first slot that starts no later than {@code now
   * + maxWaitNanos}; otherwise changes nothing and says how long until the next permit.
   */
  RateDecision reserve(RateSpec spec, long now, long maxWaitNanos);

  static RateState create(RateLimitType type, long now) {
    return switch (type) {
      case SMOOTH -> new GcraState(now);
      case FIXED -> new FixedWindowState();
      case ROLLING -> new RollingWindowState();
    };
  }
}
