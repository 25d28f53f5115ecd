package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.Millis;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How quickly each JVM's waiters got going once a permit came free: for every call that waited, the
 * time from the last recorded exit before its entry to that entry. On a full bulkhead each entry
 * follows the release that handed it the permit, so this is the hand-over's wake-up latency
 * (release, script, publish, delivery, unpark) seen from the records. Reported per worker as median
 * / 90th percentile / max in ms.
 */
public final class WakeUpLag {

  private WakeUpLag() {}

  public static Map<String, String> perWorker(List<CallRecord> waiters, List<CallRecord> all) {
    long[] exits =
        all.stream()
            .filter(CallRecord::entered)
            .mapToLong(CallRecord::exitNanos)
            .sorted()
            .toArray();
    Map<String, List<Long>> lags = new TreeMap<>();
    for (CallRecord call : waiters) {
      int index = Arrays.binarySearch(exits, call.enterNanos());
      int before = index >= 0 ? index : -index - 2;
      if (before >= 0) {
        lags.computeIfAbsent(call.worker(), w -> new ArrayList<>())
            .add(call.enterNanos() - exits[before]);
      }
    }
    Map<String, String> summary = new LinkedHashMap<>();
    lags.forEach(
        (worker, values) -> {
          values.sort(null);
          summary.put(
              worker,
              String.format(
                  "%.1f/%.1f/%.1f",
                  Millis.of(values.get(values.size() / 2)),
                  Millis.of(values.get(values.size() * 9 / 10)),
                  Millis.of(values.get(values.size() - 1))));
        });
    return summary;
  }
}
