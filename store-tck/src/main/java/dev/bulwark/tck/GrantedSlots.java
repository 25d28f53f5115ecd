package dev.bulwark.tck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The start times of granted rate-limit slots as a client can know them: the store decides on its
 * own clock, at an instant between the client's readings just before and just after the call, and a
 * slot starts {@code delay} after that instant. So each slot is known to lie in {@code [before +
 * delay, after + delay]} on the client's clock, and a limit is violated for certain only when more
 * slots than it allows lie in one interval even at the widest reading of those bounds. Nothing is
 * guessed about scheduling: a slow machine widens the bounds, it never fails the check.
 */
final class GrantedSlots {

  /**
   * What the bounds may be off by: a store's clock may count in whole microseconds, and a server's
   * wall clock may run up to 500 ppm apart from the client's monotonic one while NTP slews it (75
   * µs over the 150 ms windows the suites use).
   */
  private static final long TOLERANCE_NANOS = 100_000;

  private record Slot(long earliest, long latest) {}

  private final List<Slot> slots = new ArrayList<>();

  /** Records a granted call made between {@code before} and {@code after} (System.nanoTime). */
  synchronized void granted(long before, long after, long delayNanos) {
    slots.add(new Slot(before + delayNanos, after + delayNanos));
  }

  synchronized int size() {
    return slots.size();
  }

  /**
   * Returns a description of {@code permits + 1} slots that certainly lie within one half-open
   * interval of {@code spanNanos}, or null when there are none: "at most {@code permits} slots in
   * any interval of that length".
   */
  synchronized String moreThanIn(int permits, long spanNanos) {
    List<Slot> sorted = new ArrayList<>(slots);
    sorted.sort(Comparator.comparingLong(Slot::earliest));
    for (int i = 0; i < sorted.size(); i++) {
      Slot first = sorted.get(i);
      List<Long> latestOfLater = new ArrayList<>();
      for (int j = i + 1; j < sorted.size(); j++) {
        latestOfLater.add(sorted.get(j).latest());
      }
      if (latestOfLater.size() < permits) {
        break;
      }
      latestOfLater.sort(null);
      long last = Math.max(first.latest(), latestOfLater.get(permits - 1));
      if (last - first.earliest() < spanNanos - TOLERANCE_NANOS) {
        return (permits + 1)
            + " slots within "
            + (last - first.earliest())
            + " ns, starting at slot "
            + i
            + " of "
            + sorted.size();
      }
    }
    return null;
  }
}
