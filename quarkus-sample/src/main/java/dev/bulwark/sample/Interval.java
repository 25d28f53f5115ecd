package dev.bulwark.sample;

/**
 * When one guarded call ran, by {@link System#nanoTime()}, and what it saw: the sample records
 * these so that its tests can check that calls which must not overlap never did.
 *
 * @param key the resource the call worked on
 * @param kind what the call did, such as {@code "write"} or {@code "read"}
 * @param startNanos when the call's body began (after Bulwark granted it)
 * @param endNanos when the call's body ended (before Bulwark released it)
 * @param fencingToken the lock's fencing token during the call
 */
public record Interval(String key, String kind, long startNanos, long endNanos, long fencingToken) {

  /** Whether this call and {@code other} ran at the same time for a while. */
  public boolean overlaps(Interval other) {
    return startNanos < other.endNanos && other.startNanos < endNanos;
  }
}
