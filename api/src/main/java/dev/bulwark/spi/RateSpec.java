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

  /** What must agree across the JVMs that share the name, as recorded in a shared store. */
  public String definition() {
    return "type=" + type + ",value=" + permits + ",window=" + windowNanos / 1_000_000 + "ms";
  }
}
