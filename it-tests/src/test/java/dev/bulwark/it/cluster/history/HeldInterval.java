package dev.bulwark.it.cluster.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The part of a granted call's hold that the records prove: from its body's entry (the grant came
 * before) to its body's exit (the release came after). A call whose JVM died inside it has no exit:
 * it holds until {@code unendedUntil}, which a test sets to the earliest instant its lease can have
 * run out ({@link Long#MAX_VALUE}: for the rest of the history).
 *
 * <p>{@link #sweep} visits such intervals in time order, exits before entries at one instant: an
 * interval that ends where another begins does not overlap it (a permit handed over is left, then
 * taken).
 */
public record HeldInterval(CallRecord call, long from, long to) {

  public static HeldInterval of(CallRecord call, long unendedUntil) {
    long to = call.ended() ? call.exitNanos() : Math.max(call.enterNanos(), unendedUntil);
    return new HeldInterval(call, call.enterNanos(), to);
  }

  /** What a sweep does at each entry and exit. */
  public interface Visitor {
    void enter(HeldInterval interval);

    void exit(HeldInterval interval);
  }

  public static void sweep(List<HeldInterval> intervals, Visitor visitor) {
    List<long[]> events = new ArrayList<>(intervals.size() * 2);
    for (int i = 0; i < intervals.size(); i++) {
      HeldInterval interval = intervals.get(i);
      events.add(new long[] {interval.from(), 1, i});
      if (interval.to() != Long.MAX_VALUE) {
        events.add(new long[] {interval.to(), 0, i});
      }
    }
    events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
    for (long[] event : events) {
      HeldInterval interval = intervals.get((int) event[2]);
      if (event[1] == 0) {
        visitor.exit(interval);
      } else {
        visitor.enter(interval);
      }
    }
  }
}
