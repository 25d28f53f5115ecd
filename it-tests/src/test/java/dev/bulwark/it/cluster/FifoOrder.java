package dev.bulwark.it.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Checks that waiters were served first come, first served across JVMs, from request and entry
 * instants recorded on one CLOCK_MONOTONIC.
 *
 * <p>The recorded instants are not the store's: a request is stamped before the call crosses the
 * interceptor and the network to Redis, an entry after the grant's wake-up reached the thread. On
 * two shared cores each may drift by a scheduling slice. So only pairs that both really waited
 * ({@code waited}) and whose requests lie more than {@code requestTolerance} apart are compared,
 * and the later one counts as served first only if it entered more than {@code entryTolerance}
 * before the earlier one. An inversion is also excused when the earlier caller's JVM stood still
 * (see {@link StallWatch}) while it was on its way to Redis or being woken: its stamps then lie.
 */
final class FifoOrder {

  /** A pair served out of order: {@code first} asked earlier but entered later. */
  record Inversion(CallRecord first, CallRecord overtaker) {
    long requestGapNanos() {
      return overtaker.requestNanos() - first.requestNanos();
    }

    long entryGapNanos() {
      return first.enterNanos() - overtaker.enterNanos();
    }

    @Override
    public String toString() {
      return String.format(
          "%s asked %.1f ms before %s but entered %.1f ms after it",
          first.callId(),
          ClusterRun.millis(requestGapNanos()),
          overtaker.callId(),
          ClusterRun.millis(entryGapNanos()));
    }
  }

  private final long waitedNanos;
  private final long requestToleranceNanos;
  private final long entryToleranceNanos;

  FifoOrder(long waitedNanos, long requestToleranceNanos, long entryToleranceNanos) {
    this.waitedNanos = waitedNanos;
    this.requestToleranceNanos = requestToleranceNanos;
    this.entryToleranceNanos = entryToleranceNanos;
  }

  /** The calls that had to wait: entered later than {@code waited} after their request. */
  List<CallRecord> waiters(List<CallRecord> calls) {
    return calls.stream()
        .filter(CallRecord::entered)
        .filter(c -> c.enterNanos() - c.requestNanos() > waitedNanos)
        .sorted(Comparator.comparingLong(CallRecord::requestNanos))
        .toList();
  }

  /**
   * How many pairs of waiters could have been served out of order: far enough apart to be compared,
   * and queued at the same time (the later one asked before the earlier one got in). A queue that
   * ignores arrival order inverts about half of them; a first-come, first-served one none, but for
   * noise.
   */
  long comparablePairs(List<CallRecord> calls) {
    List<CallRecord> waiters = waiters(calls);
    long pairs = 0;
    for (int i = 0; i < waiters.size(); i++) {
      CallRecord first = waiters.get(i);
      for (int j = i + 1; j < waiters.size(); j++) {
        CallRecord later = waiters.get(j);
        if (later.requestNanos() - first.requestNanos() > requestToleranceNanos
            && later.requestNanos() < first.enterNanos()) {
          pairs++;
        }
      }
    }
    return pairs;
  }

  /** Every pair of waiters served out of order beyond the tolerances. */
  List<Inversion> inversions(List<CallRecord> calls) {
    List<CallRecord> waiters = waiters(calls);
    List<Inversion> found = new ArrayList<>();
    for (int i = 0; i < waiters.size(); i++) {
      CallRecord first = waiters.get(i);
      for (int j = i + 1; j < waiters.size(); j++) {
        CallRecord later = waiters.get(j);
        if (later.requestNanos() - first.requestNanos() > requestToleranceNanos
            && first.enterNanos() - later.enterNanos() > entryToleranceNanos) {
          found.add(new Inversion(first, later));
        }
      }
    }
    return found;
  }

  /** The inversions not explained by a stall of the overtaken caller's JVM. */
  static List<Inversion> unexplained(List<Inversion> inversions, Recording recording) {
    return inversions.stream()
        .filter(
            inv -> {
              CallRecord first = inv.first();
              CallRecord overtaker = inv.overtaker();
              boolean lateToRedis =
                  recording.stalledDuring(
                      first.worker(), first.requestNanos(), overtaker.requestNanos());
              boolean lateAwake =
                  recording.stalledDuring(
                      first.worker(), overtaker.enterNanos(), first.enterNanos());
              return !lateToRedis && !lateAwake;
            })
        .toList();
  }

  /** The worst inversion with no tolerance at all, for the report: how far order slipped. */
  static double worstSlipMillis(List<CallRecord> waiters) {
    long worst = 0;
    for (int i = 0; i < waiters.size(); i++) {
      for (int j = i + 1; j < waiters.size(); j++) {
        CallRecord a = waiters.get(i);
        CallRecord b = waiters.get(j);
        if (b.requestNanos() > a.requestNanos() && b.enterNanos() < a.enterNanos()) {
          worst =
              Math.max(
                  worst,
                  Math.min(b.requestNanos() - a.requestNanos(), a.enterNanos() - b.enterNanos()));
        }
      }
    }
    return ClusterRun.millis(worst);
  }
}
