package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.cluster.history.CallRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * How many recorded calls were inside at once, as a step function over time built from their entry
 * and exit instants. At one instant exits count before entries, since a permit handed over is left
 * and taken in that order. A call still {@link CallRecord#INSIDE} stays inside forever.
 */
public final class Concurrency {

  /** The step function: at {@code times[i]} the level becomes {@code levels[i]}. */
  private final long[] times;

  private final int[] levels;

  private Concurrency(long[] times, int[] levels) {
    this.times = times;
    this.levels = levels;
  }

  public static Concurrency of(Collection<CallRecord> calls) {
    List<long[]> events = new ArrayList<>();
    for (CallRecord call : calls) {
      if (!call.entered()) {
        continue;
      }
      events.add(new long[] {call.enterNanos(), +1});
      if (call.exitNanos() != 0) {
        events.add(new long[] {call.exitNanos(), -1});
      }
    }
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    long[] times = new long[events.size()];
    int[] levels = new int[events.size()];
    int level = 0;
    for (int i = 0; i < events.size(); i++) {
      level += (int) events.get(i)[1];
      times[i] = events.get(i)[0];
      levels[i] = level;
    }
    return new Concurrency(times, levels);
  }

  /** The most calls inside at once over the whole run. */
  public int max() {
    return max(Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /** The most calls inside at once at any instant of {@code [from, to]}. */
  public int max(long from, long to) {
    int max = at(from);
    for (int i = 0; i < times.length; i++) {
      if (times[i] > from && times[i] <= to) {
        max = Math.max(max, levels[i]);
      }
    }
    return max;
  }

  /** The level at {@code instant}, after every change at or before it. */
  public int at(long instant) {
    int level = 0;
    for (int i = 0; i < times.length && times[i] <= instant; i++) {
      level = levels[i];
    }
    return level;
  }

  /** The first instant after {@code from} at which at least {@code level} calls are inside. */
  public long firstReaching(int level, long from) {
    for (int i = 0; i < times.length; i++) {
      if (times[i] > from && levels[i] >= level) {
        return times[i];
      }
    }
    return -1;
  }
}
