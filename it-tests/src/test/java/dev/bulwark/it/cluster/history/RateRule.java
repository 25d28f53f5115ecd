package dev.bulwark.it.cluster.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Rate grants never above {@code burst + rate × t} in any interval of length {@code t}. A grant's
 * instant is known only to lie in [request, entry], so a set of grants is known to fall inside [t1,
 * t2] when each was requested at or after t1 and entered by t2; the rule is broken when some such
 * set is larger than {@code burst + rate × (t2 - t1) + tolerance}. Every interval that matters
 * opens at a request and closes at an entry.
 *
 * <p>Exact in O(n log n): the entries are swept in order as t2; for every candidate t1 (a request)
 * a segment tree keeps {@code rate × t1 + (grants requested at or after t1 and entered by now)}, so
 * the worst interval closing at t2 is one range maximum. Consecutive closing entries that break the
 * rule form one episode, reported once, by its worst interval and the grants inside it.
 */
public final class RateRule implements HistoryRule {

  /** Rounding of the allowance's arithmetic, far below one grant: not an overshoot. */
  private static final double ROUNDING = 1e-6;

  /** Episodes reported with every grant inside their worst interval; the rest with its bounds. */
  private static final int EPISODES_WITH_RECORDS = 10;

  private final String kind;
  private final double burst;
  private final double perSecond;
  private final double tolerance;

  private RateRule(String kind, double burst, double perSecond, double tolerance) {
    this.kind = kind;
    this.burst = burst;
    this.perSecond = perSecond;
    this.tolerance = tolerance;
  }

  public static RateRule atMost(double burst, double perSecond) {
    return new RateRule("RATE", burst, perSecond, 0);
  }

  /** Allows {@code grants} more in any interval: the store's clock is not the records'. */
  public RateRule tolerating(double grants) {
    return new RateRule(kind, burst, perSecond, grants);
  }

  @Override
  public String describe() {
    return String.format(
        "%s grants at most %s + %s/s × t in any interval%s",
        kind,
        number(burst),
        number(perSecond),
        tolerance == 0 ? "" : " (+" + number(tolerance) + " tolerated)");
  }

  @Override
  public RuleOutcome check(History history) {
    List<CallRecord> grants =
        history.calls().stream().filter(c -> c.entered() && kind.equals(c.kind())).toList();
    List<RuleViolation> violations = new ArrayList<>();
    if (grants.isEmpty()) {
      return new RuleOutcome(describe(), "0 grants", violations);
    }
    long base = grants.stream().mapToLong(CallRecord::requestNanos).min().orElseThrow();
    double perNano = perSecond / 1e9;
    // candidates for t1, by request
    CallRecord[] byRequest = grants.toArray(CallRecord[]::new);
    Arrays.sort(byRequest, Comparator.comparingLong(CallRecord::requestNanos));
    long[] requests = Arrays.stream(byRequest).mapToLong(CallRecord::requestNanos).toArray();
    MaxTree tree = new MaxTree(requests.length);
    for (int i = 0; i < requests.length; i++) {
      tree.add(i, i, perNano * (requests[i] - base));
    }
    List<CallRecord> byEntry = new ArrayList<>(grants);
    byEntry.sort(Comparator.comparingLong(CallRecord::enterNanos));
    double worstExcess = Double.NEGATIVE_INFINITY;
    double[] episode = null; // {excess, t1 index, t2}
    int episodes = 0;
    for (CallRecord closing : byEntry) {
      // this grant now counts for every interval opening at or before its request
      tree.add(0, SortedTimes.lastAtOrBefore(requests, closing.requestNanos()), 1);
      int open = SortedTimes.lastAtOrBefore(requests, closing.enterNanos());
      int t1 = tree.argMax(0, open);
      double inside = tree.max(0, open) - perNano * (requests[t1] - base);
      double excess = inside - (burst + perNano * (closing.enterNanos() - requests[t1]));
      worstExcess = Math.max(worstExcess, excess);
      if (excess > tolerance + ROUNDING) {
        if (episode == null || excess > episode[0]) {
          episode = new double[] {excess, t1, closing.enterNanos()};
        }
      } else if (episode != null) {
        violations.add(violation(episode, requests, byEntry, episodes++));
        episode = null;
      }
    }
    if (episode != null) {
      violations.add(violation(episode, requests, byEntry, episodes));
    }
    return new RuleOutcome(
        describe(),
        String.format(
            "%d grants, worst interval %+.2f grants against the allowance",
            grants.size(), worstExcess),
        violations);
  }

  private RuleViolation violation(
      double[] episode, long[] requests, List<CallRecord> byEntry, int index) {
    long t1 = requests[(int) episode[1]];
    long t2 = (long) episode[2];
    List<CallRecord> inside =
        byEntry.stream().filter(c -> c.requestNanos() >= t1 && c.enterNanos() <= t2).toList();
    double allowed = burst + perSecond * (t2 - t1) / 1e9;
    List<CallRecord> shown =
        index < EPISODES_WITH_RECORDS
            ? inside
            : List.of(inside.get(0), inside.get(inside.size() - 1));
    return new RuleViolation(
        String.format(
            "%d grants in [%d, %d] (%.3f ms), allowed %.2f",
            inside.size(), t1, t2, Millis.of(t2 - t1), allowed),
        shown);
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }

  /** Range add, range maximum (and where it is), over a fixed number of slots. */
  private static final class MaxTree {
    private final int size;
    private final double[] max;
    private final double[] pending;

    MaxTree(int size) {
      this.size = size;
      this.max = new double[4 * size];
      this.pending = new double[4 * size];
    }

    void add(int from, int to, double delta) {
      if (from <= to) {
        add(1, 0, size - 1, from, to, delta);
      }
    }

    double max(int from, int to) {
      return max(1, 0, size - 1, from, to);
    }

    /**
     * The first slot of [from, to] holding the maximum (up to rounding: the sums are added up in
     * another order on the way down).
     */
    int argMax(int from, int to) {
      double target = max(from, to) - 1e-6;
      return argMax(1, 0, size - 1, from, to, target, 0);
    }

    private void add(int node, int low, int high, int from, int to, double delta) {
      if (to < low || high < from) {
        return;
      }
      if (from <= low && high <= to) {
        max[node] += delta;
        pending[node] += delta;
        return;
      }
      int mid = (low + high) >>> 1;
      add(2 * node, low, mid, from, to, delta);
      add(2 * node + 1, mid + 1, high, from, to, delta);
      max[node] = Math.max(max[2 * node], max[2 * node + 1]) + pending[node];
    }

    private double max(int node, int low, int high, int from, int to) {
      if (to < low || high < from) {
        return Double.NEGATIVE_INFINITY;
      }
      if (from <= low && high <= to) {
        return max[node];
      }
      int mid = (low + high) >>> 1;
      return Math.max(max(2 * node, low, mid, from, to), max(2 * node + 1, mid + 1, high, from, to))
          + pending[node];
    }

    private int argMax(int node, int low, int high, int from, int to, double target, double above) {
      if (to < low || high < from || max[node] + above < target) {
        return -1;
      }
      if (low == high) {
        return low;
      }
      int mid = (low + high) >>> 1;
      double below = above + pending[node];
      int left = argMax(2 * node, low, mid, from, to, target, below);
      return left >= 0 ? left : argMax(2 * node + 1, mid + 1, high, from, to, target, below);
    }
  }
}
