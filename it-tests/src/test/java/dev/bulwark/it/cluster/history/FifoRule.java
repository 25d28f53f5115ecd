package dev.bulwark.it.cluster.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Waiters are served first come, first served across JVMs, within stated tolerances, judged from
 * request and entry instants recorded on one CLOCK_MONOTONIC.
 *
 * <p>The recorded instants are not the store's: a request is stamped before the call crosses the
 * interceptor and the network to the store, an entry after the grant's wake-up reached the thread.
 * On two shared cores each may drift by a scheduling slice. So only pairs that both really waited
 * (entered more than {@code waited} after their request) and whose requests lie more than {@code
 * requestTolerance} apart are compared, and the later one counts as served first only if it entered
 * more than {@code entryTolerance} before the earlier one. An inversion is excused when the earlier
 * caller's JVM stood still ({@link History#stalledDuring}) while it was on its way to the store or
 * being woken: its stamps then lie. The rule is broken when the inversions left exceed {@code
 * noiseShare} of the pairs that were queued together (the later one asked before the earlier one
 * got in): a queue that ignores arrival order inverts about half of them.
 *
 * <p>Pairs are enumerated per waiter among the waiters that asked while it waited (requests sorted,
 * binary search): the work grows with the pairs queued together, not with the square of the calls.
 */
public final class FifoRule implements HistoryRule {

  /** A pair served out of order: {@code first} asked earlier but entered later. */
  public record Inversion(CallRecord first, CallRecord overtaker) {
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
          Millis.of(requestGapNanos()),
          overtaker.callId(),
          Millis.of(entryGapNanos()));
    }
  }

  private final long waitedNanos;
  private final long requestToleranceNanos;
  private final long entryToleranceNanos;
  private final double noiseShare;
  private final Predicate<CallRecord> compared;
  private final String comparedName;

  private FifoRule(
      long waitedNanos,
      long requestToleranceNanos,
      long entryToleranceNanos,
      double noiseShare,
      Predicate<CallRecord> compared,
      String comparedName) {
    this.waitedNanos = waitedNanos;
    this.requestToleranceNanos = requestToleranceNanos;
    this.entryToleranceNanos = entryToleranceNanos;
    this.noiseShare = noiseShare;
    this.compared = compared;
    this.comparedName = comparedName;
  }

  public static FifoRule within(
      Duration waited, Duration requestTolerance, Duration entryTolerance, double noiseShare) {
    return new FifoRule(
        waited.toNanos(),
        requestTolerance.toNanos(),
        entryTolerance.toNanos(),
        noiseShare,
        c -> true,
        "calls");
  }

  /** Compares only the calls {@code which} accepts, named {@code name} in the verdict. */
  public FifoRule only(Predicate<CallRecord> which, String name) {
    return new FifoRule(
        waitedNanos, requestToleranceNanos, entryToleranceNanos, noiseShare, which, name);
  }

  @Override
  public String describe() {
    return String.format(
        "%s that waited > %.0f ms are served in arrival order (requests > %.0f ms apart, entries"
            + " > %.0f ms out of order, at most %.2f %% of the pairs queued together)",
        comparedName,
        Millis.of(waitedNanos),
        Millis.of(requestToleranceNanos),
        Millis.of(entryToleranceNanos),
        noiseShare * 100);
  }

  @Override
  public RuleOutcome check(History history) {
    List<CallRecord> waiters = waiters(history);
    long comparable = comparablePairs(waiters);
    List<Inversion> inversions = inversions(waiters);
    List<Inversion> unexplained =
        inversions.stream().filter(inv -> !excused(inv, history)).toList();
    List<RuleViolation> violations =
        unexplained.size() > noiseShare * comparable
            ? unexplained.stream()
                .map(
                    inv ->
                        new RuleViolation(
                            "served out of order: " + inv, List.of(inv.first(), inv.overtaker())))
                .toList()
            : List.of();
    return new RuleOutcome(
        describe(),
        String.format(
            "%d waiters, %d pairs queued together, %d inversions, %d not explained by a stall"
                + " (%.2f %%)",
            waiters.size(),
            comparable,
            inversions.size(),
            unexplained.size(),
            100.0 * unexplained.size() / Math.max(1, comparable)),
        violations);
  }

  /** The compared calls that had to wait, sorted by request. */
  public List<CallRecord> waiters(History history) {
    return history.calls().stream()
        .filter(compared)
        .filter(CallRecord::entered)
        .filter(c -> c.enterNanos() - c.requestNanos() > waitedNanos)
        .sorted(Comparator.comparingLong(CallRecord::requestNanos))
        .toList();
  }

  /**
   * How many pairs of {@code waiters} could have been served out of order: far enough apart to be
   * compared, and queued at the same time (the later one asked before the earlier one got in).
   */
  public long comparablePairs(List<CallRecord> waiters) {
    long[] requests = waiters.stream().mapToLong(CallRecord::requestNanos).toArray();
    long pairs = 0;
    for (CallRecord first : waiters) {
      int from = SortedTimes.firstAfter(requests, first.requestNanos() + requestToleranceNanos);
      int to = SortedTimes.firstAtOrAfter(requests, first.enterNanos());
      pairs += Math.max(0, to - from);
    }
    return pairs;
  }

  /** Every pair of {@code waiters} served out of order beyond the tolerances. */
  public List<Inversion> inversions(List<CallRecord> waiters) {
    long[] requests = waiters.stream().mapToLong(CallRecord::requestNanos).toArray();
    List<Inversion> found = new ArrayList<>();
    for (CallRecord first : waiters) {
      // an overtaker asked after it and entered before it: it asked while first waited
      int to = SortedTimes.firstAtOrAfter(requests, first.enterNanos());
      for (int j = SortedTimes.firstAfter(requests, first.requestNanos() + requestToleranceNanos);
          j < to;
          j++) {
        CallRecord later = waiters.get(j);
        if (first.enterNanos() - later.enterNanos() > entryToleranceNanos) {
          found.add(new Inversion(first, later));
        }
      }
    }
    return found;
  }

  /** The overtaken caller's JVM stood still on its way to the store or while being woken. */
  private static boolean excused(Inversion inv, History history) {
    CallRecord first = inv.first();
    CallRecord overtaker = inv.overtaker();
    return history.stalledDuring(first.worker(), first.requestNanos(), overtaker.requestNanos())
        || history.stalledDuring(first.worker(), overtaker.enterNanos(), first.enterNanos());
  }

  /** The worst inversion with no tolerance at all, for the report: how far order slipped. */
  public static double worstSlipMillis(List<CallRecord> waiters) {
    long[] requests = waiters.stream().mapToLong(CallRecord::requestNanos).toArray();
    long worst = 0;
    for (CallRecord a : waiters) {
      int to = SortedTimes.firstAtOrAfter(requests, a.enterNanos());
      for (int j = SortedTimes.firstAfter(requests, a.requestNanos()); j < to; j++) {
        CallRecord b = waiters.get(j);
        if (b.enterNanos() < a.enterNanos()) {
          worst =
              Math.max(
                  worst,
                  Math.min(b.requestNanos() - a.requestNanos(), a.enterNanos() - b.enterNanos()));
        }
      }
    }
    return Millis.of(worst);
  }
}
