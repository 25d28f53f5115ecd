package dev.bulwark.spi;

/**
 * A store's answer to a rate-limit reservation.
 *
 * @param granted whether the caller has a permit
 * @param delayNanos when granted, how long the caller must wait before its reserved slot starts (0
 *     for now); when rejected, how long until the next permit frees up
 */
public record RateDecision(boolean granted, long delayNanos) {

  public static final RateDecision NOW = new RateDecision(true, 0);

  public static RateDecision grantedAfter(long delayNanos) {
    return delayNanos <= 0 ? NOW : new RateDecision(true, delayNanos);
  }

  public static RateDecision rejected(long retryAfterNanos) {
    return new RateDecision(false, Math.max(0, retryAfterNanos));
  }
}
