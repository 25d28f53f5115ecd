package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.EventLog;
import dev.bulwark.it.cluster.history.History;
import dev.bulwark.it.cluster.history.HistoryChecker;
import dev.bulwark.it.cluster.history.Millis;
import dev.bulwark.it.cluster.history.StallWatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the workers of one run wrote to their event files, read back by the test: every call (a call
 * that entered and whose JVM died before it ended appears with outcome {@link CallRecord#INSIDE}),
 * the workers' {@code INFO} lines and whether each reached {@code DONE}.
 */
public final class Recording {

  private final List<CallRecord> calls;
  private final Map<String, Map<String, String>> infos;
  private final List<String> done;
  private final Map<String, List<long[]>> stalls;

  private Recording(
      List<CallRecord> calls,
      Map<String, Map<String, String>> infos,
      List<String> done,
      Map<String, List<long[]>> stalls) {
    this.calls = calls;
    this.infos = infos;
    this.done = done;
    this.stalls = stalls;
  }

  public static Recording load(Collection<WorkerProcesses.Worker> workers) {
    List<CallRecord> calls = new ArrayList<>();
    Map<String, Map<String, String>> infos = new LinkedHashMap<>();
    List<String> done = new ArrayList<>();
    Map<String, List<long[]>> stalls = new LinkedHashMap<>();
    for (WorkerProcesses.Worker worker : workers) {
      List<long[]> workerStalls = new ArrayList<>();
      Map<String, CallRecord> open = new LinkedHashMap<>();
      Map<String, String> info = new LinkedHashMap<>();
      List<String> lines;
      try {
        lines = Files.exists(worker.events()) ? Files.readAllLines(worker.events()) : List.of();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (String line : lines) {
        String[] fields = line.split("\t");
        switch (fields[0]) {
          case CallRecord.ENTER_LINE -> {
            CallRecord entered = CallRecord.fromFields(fields);
            open.put(entered.callId(), entered);
          }
          case CallRecord.CALL_LINE -> {
            CallRecord call = CallRecord.fromFields(fields);
            open.remove(call.callId());
            calls.add(call);
          }
          case EventLog.INFO_LINE -> info.put(fields[1], fields[2]);
          case EventLog.DONE_LINE -> done.add(worker.name());
          case EventLog.STALL_LINE ->
              workerStalls.add(new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2])});
          default -> {
            // a line cut short by SIGKILL: nothing to learn from it
          }
        }
      }
      calls.addAll(open.values());
      infos.put(worker.name(), info);
      stalls.put(worker.name(), workerStalls);
    }
    return new Recording(List.copyOf(calls), infos, List.copyOf(done), stalls);
  }

  public List<CallRecord> calls() {
    return calls;
  }

  public List<CallRecord> calls(Predicate<CallRecord> filter) {
    return calls.stream().filter(filter).toList();
  }

  /** This recording with only the calls {@code filter} keeps (stalls and infos all kept). */
  public Recording only(Predicate<CallRecord> filter) {
    return new Recording(calls(filter), infos, done, stalls);
  }

  public List<CallRecord> entered() {
    return calls(CallRecord::entered);
  }

  /** Calls that ended with {@code outcome}: {@code OK}, {@code INSIDE} or an exception's name. */
  public long count(String outcome) {
    return calls.stream().filter(c -> c.outcome().equals(outcome)).count();
  }

  /** Rejections a worker only counted (no line per call), summed over the workers. */
  public long countedRejections(String exception) {
    return infos.values().stream()
        .mapToLong(info -> Long.parseLong(info.getOrDefault("rejected:" + exception, "0")))
        .sum();
  }

  /** Every {@code INFO} value a worker wrote, by name. */
  public Map<String, String> infos(String worker) {
    return infos.getOrDefault(worker, Map.of());
  }

  /** An {@code INFO} value a worker wrote, or null. */
  public String info(String worker, String name) {
    return infos.getOrDefault(worker, Map.of()).get(name);
  }

  /** The run's full history, for the {@link HistoryChecker}: every call and every stall. */
  public History history() {
    return new History(calls, stalls);
  }

  /** The times a worker's JVM stood still ({@code STALL} lines): from and to, in nanos. */
  public List<long[]> stalls(String worker) {
    return stalls.getOrDefault(worker, List.of());
  }

  /** How many stalls the workers noted, and the longest, in ms. */
  public String stallSummary() {
    long count = stalls.values().stream().mapToLong(List::size).sum();
    long longest =
        stalls.values().stream().flatMap(List::stream).mapToLong(s -> s[1] - s[0]).max().orElse(0);
    return count
        + " stalls > "
        + StallWatch.THRESHOLD_NANOS / 1_000_000
        + " ms, longest "
        + String.format("%.1f ms", Millis.of(longest));
  }

  public boolean isDone(String worker) {
    return done.contains(worker);
  }

  /** Counts of each outcome, for messages. */
  public Map<String, Long> outcomes() {
    Map<String, Long> counts = new LinkedHashMap<>();
    calls.forEach(c -> counts.merge(c.outcome(), 1L, Long::sum));
    return counts;
  }
}
