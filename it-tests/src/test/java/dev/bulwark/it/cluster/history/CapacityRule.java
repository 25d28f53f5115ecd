package dev.bulwark.it.cluster.history;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * At most {@code value} holders of a bulkhead at any instant. A holder's interval is the part of
 * its hold the records prove ({@link HeldInterval}): the store's grant lies somewhere between the
 * call's request and its body's entry, the release between the body's exit and the return, so only
 * more than {@code value} bodies at one instant prove an overshoot. Holds that merely may have
 * overlapped (a release and a grant both uncertain around one instant) are not violations.
 *
 * <p>Optionally per worker JVM (a {@code local} failure policy limits each JVM alone), within a
 * window of time (the limit holds before and after an outage, not during it), and with the holders
 * of a killed JVM holding until a given instant (their lease's earliest end).
 */
public final class CapacityRule implements HistoryRule {

  private final String kind;
  private final int value;
  private final boolean perWorker;
  private final long from;
  private final long to;
  private final long unendedUntil;
  private final long enteredFrom;

  private CapacityRule(
      String kind,
      int value,
      boolean perWorker,
      long from,
      long to,
      long unendedUntil,
      long enteredFrom) {
    this.kind = kind;
    this.value = value;
    this.perWorker = perWorker;
    this.from = from;
    this.to = to;
    this.unendedUntil = unendedUntil;
    this.enteredFrom = enteredFrom;
  }

  /** At most {@code value} bulkhead calls inside at once, cluster-wide, over the whole run. */
  public static CapacityRule atMost(int value) {
    return new CapacityRule(
        "BULKHEAD", value, false, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE);
  }

  /** The limit per worker JVM instead of cluster-wide. */
  public CapacityRule perWorker() {
    return new CapacityRule(kind, value, true, from, to, unendedUntil, enteredFrom);
  }

  /** Only at the instants of [from, to]. */
  public CapacityRule during(long from, long to) {
    return new CapacityRule(kind, value, perWorker, from, to, unendedUntil, enteredFrom);
  }

  /**
   * Only the calls that entered at or after {@code instant}: after an outage, the calls a failure
   * policy let in while the store was away are not the store's to count, however long they last.
   */
  public CapacityRule enteredFrom(long instant) {
    return new CapacityRule(kind, value, perWorker, from, to, unendedUntil, instant);
  }

  /** Calls whose end was never recorded (their JVM was killed) hold until {@code instant}. */
  public CapacityRule unendedHeldUntil(long instant) {
    return new CapacityRule(kind, value, perWorker, from, to, instant, enteredFrom);
  }

  @Override
  public String describe() {
    return "at most "
        + value
        + " "
        + kind
        + " holders at once"
        + (perWorker ? " per JVM" : "")
        + (from == Long.MIN_VALUE && to == Long.MAX_VALUE
            ? ""
            : " in [" + bound(from) + ", " + bound(to) + "]")
        + (unendedUntil == Long.MAX_VALUE ? "" : ", a killed JVM's holds ending at " + unendedUntil)
        + (enteredFrom == Long.MIN_VALUE ? "" : ", of the calls entered from " + enteredFrom);
  }

  @Override
  public RuleOutcome check(History history) {
    Function<CallRecord, String> scope = perWorker ? CallRecord::worker : c -> "cluster";
    Map<String, List<HeldInterval>> groups = new LinkedHashMap<>();
    for (CallRecord call : history.calls()) {
      if (!call.entered() || !kind.equals(call.kind()) || call.enterNanos() < enteredFrom) {
        continue;
      }
      HeldInterval held = HeldInterval.of(call, unendedUntil);
      // inside the window: ends after its start and begins by its end; a hold that began before
      // the window counts from its start
      if (held.to() > from && held.from() <= to) {
        groups
            .computeIfAbsent(scope.apply(call), s -> new ArrayList<>())
            .add(new HeldInterval(call, Math.max(held.from(), from), held.to()));
      }
    }
    List<RuleViolation> violations = new ArrayList<>();
    int[] most = new int[1];
    long holds = groups.values().stream().mapToLong(List::size).sum();
    groups.forEach(
        (group, intervals) -> {
          Set<HeldInterval> inside = new LinkedHashSet<>();
          HeldInterval.sweep(
              intervals,
              new HeldInterval.Visitor() {
                @Override
                public void enter(HeldInterval interval) {
                  inside.add(interval);
                  most[0] = Math.max(most[0], inside.size());
                  if (inside.size() > value) {
                    violations.add(
                        new RuleViolation(
                            inside.size()
                                + " holders at "
                                + interval.from()
                                + (perWorker ? " in " + group : "")
                                + ", limit "
                                + value,
                            inside.stream().map(HeldInterval::call).toList()));
                  }
                }

                @Override
                public void exit(HeldInterval interval) {
                  inside.remove(interval);
                }
              });
        });
    return new RuleOutcome(describe(), holds + " holds, most at once " + most[0], violations);
  }

  private static String bound(long instant) {
    return instant == Long.MIN_VALUE
        ? "-∞"
        : instant == Long.MAX_VALUE ? "∞" : String.valueOf(instant);
  }
}
