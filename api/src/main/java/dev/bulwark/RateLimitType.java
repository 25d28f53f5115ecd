package dev.bulwark;

/** The algorithm of a {@link DistributedRateLimit}. */
public enum RateLimitType {
  /**
   * Generic cell rate algorithm: a burst of {@code value} permits, then one permit every {@code
   * window / value}.
   */
  SMOOTH,
  /** {@code value} permits per window aligned to the store clock; the count resets each window. */
  FIXED,
  /** At most {@code value} permits in any window-long interval (sliding log). */
  ROLLING
}
