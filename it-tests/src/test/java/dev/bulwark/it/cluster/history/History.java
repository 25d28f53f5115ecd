package dev.bulwark.it.cluster.history;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The full history of one multi-JVM run, the input of the {@link HistoryChecker}: every call of
 * every worker JVM ({@link CallRecord}: JVM, thread, request, entry, exit, return, outcome, fencing
 * token) and the times each JVM stood still ({@link StallWatch}), which excuse late stamps.
 *
 * <p>Written to one file per run, a {@code CALL} line per call and a {@code STALL} line per stall
 * (tab-separated, the event files' format), and read back from it: a kept file can be checked again
 * by hand, outside the run that wrote it.
 */
public final class History {

  private static final String HEADER = "# bulwark multi-JVM history";

  private final List<CallRecord> calls;

  /** Per worker, its stalls as {from, to} pairs, in order: one thread notes them one by one. */
  private final Map<String, List<long[]>> stalls;

  public History(List<CallRecord> calls, Map<String, List<long[]>> stalls) {
    this.calls = List.copyOf(calls);
    Map<String, List<long[]>> sorted = new LinkedHashMap<>();
    stalls.forEach(
        (worker, list) -> {
          List<long[]> copy = new ArrayList<>(list);
          copy.sort(Comparator.comparingLong(s -> s[0]));
          sorted.put(worker, List.copyOf(copy));
        });
    this.stalls = sorted;
  }

  public static History of(List<CallRecord> calls) {
    return new History(calls, Map.of());
  }

  public List<CallRecord> calls() {
    return calls;
  }

  /**
   * Whether {@code worker} stood still at some point of [from, to]. Its stalls do not overlap (each
   * begins where the watch last woke), so the one that began last before {@code to} ends last.
   */
  public boolean stalledDuring(String worker, long from, long to) {
    List<long[]> list = stalls.getOrDefault(worker, List.of());
    int low = 0;
    int high = list.size() - 1;
    int last = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (list.get(mid)[0] < to) {
        last = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return last >= 0 && list.get(last)[1] > from;
  }

  public void write(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        out.write(HEADER + "\n");
        for (CallRecord call : calls) {
          out.write(call.toLine(CallRecord.CALL_LINE) + "\n");
        }
        for (Map.Entry<String, List<long[]>> entry : stalls.entrySet()) {
          for (long[] stall : entry.getValue()) {
            out.write(
                String.join(
                        "\t",
                        EventLog.STALL_LINE,
                        entry.getKey(),
                        String.valueOf(stall[0]),
                        String.valueOf(stall[1]))
                    + "\n");
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static History read(Path file) {
    List<CallRecord> calls = new ArrayList<>();
    Map<String, List<long[]>> stalls = new LinkedHashMap<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] fields = line.split("\t");
        switch (fields[0]) {
          case CallRecord.CALL_LINE -> calls.add(CallRecord.fromFields(fields));
          case EventLog.STALL_LINE ->
              stalls
                  .computeIfAbsent(fields[1], w -> new ArrayList<>())
                  .add(new long[] {Long.parseLong(fields[2]), Long.parseLong(fields[3])});
          default -> {
            // the header
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new History(calls, stalls);
  }
}
