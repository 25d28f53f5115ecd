package dev.bulwark.spi;

import dev.bulwark.RateLimitType;

/**
 * One rate limit as a store sees it.
 *
 * @param name the limit's name
 * @param type the algorithm
 * @param permits permits per window
 * @param windowNanos the window's length
 */
public record RateSpec(String name, RateLimitType type, int permits, long windowNanos) {

  /** The spacing of permits of a {@link RateLimitType#SMOOTH} limit. */
  public long emissionIntervalNanos() {
    return windowNanos / permits;
  }
}
