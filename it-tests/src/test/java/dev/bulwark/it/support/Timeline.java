package dev.bulwark.it.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** When calls were let through: each grant's id and {@link System#nanoTime()}. */
public final class Timeline {

  /** One call let through. */
  public record Grant(int id, long nanos, long epochMillis) {}

  private final List<Grant> grants = new ArrayList<>();

  /** Records a grant now; call it first thing in the guarded method. */
  public synchronized long record(int id) {
    long now = System.nanoTime();
    grants.add(new Grant(id, now, System.currentTimeMillis()));
    return now;
  }

  /** The grants in time order. */
  public synchronized List<Grant> grants() {
    List<Grant> copy = new ArrayList<>(grants);
    copy.sort(Comparator.comparingLong(Grant::nanos));
    return copy;
  }

  /** The grant times in order, in milliseconds after {@code originNanos}. */
  public List<Double> millisAfter(long originNanos) {
    return grants().stream().map(g -> (g.nanos() - originNanos) / 1e6).toList();
  }

  /**
   * The largest number of grants inside any half-open interval of length {@code window} ({@code [t,
   * t + window)}), the quantity a rolling limit caps.
   */
  public int maxInAnyWindow(Duration window) {
    List<Grant> sorted = grants();
    int max = 0;
    int from = 0;
    for (int to = 0; to < sorted.size(); to++) {
      while (sorted.get(to).nanos() - sorted.get(from).nanos() >= window.toNanos()) {
        from++;
      }
      max = Math.max(max, to - from + 1);
    }
    return max;
  }

  /** Parks the current thread until {@code System.nanoTime()} reaches {@code deadlineNanos}. */
  public static void parkUntil(long deadlineNanos) {
    long left;
    while ((left = deadlineNanos - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }

  /** Milliseconds from {@code fromNanos} to {@code toNanos}. */
  public static double millis(long fromNanos, long toNanos) {
    return (toNanos - fromNanos) / (double) TimeUnit.MILLISECONDS.toNanos(1);
  }
}
