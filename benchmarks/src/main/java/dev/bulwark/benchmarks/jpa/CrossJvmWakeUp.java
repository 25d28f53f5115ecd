package dev.bulwark.benchmarks.jpa;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.benchmarks.HeldTurns;
import dev.bulwark.spi.BulwarkStoreProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Cross-JVM wake-up on the JPA store (PostgreSQL): a bulkhead of 1 shared by two JVMs — this one
 * and a child it starts — with one caller each, which take the permit in turn: each holds it for
 * {@link #HOLD_NANOS}, releases it and asks again at once, so that the other JVM's caller, queued
 * meanwhile, is woken by a release made in another JVM. Measured: from just before the release to
 * just after the other JVM's acquire returns ({@link System#nanoTime()}, one clock for all
 * processes of a Linux host), once with wake-ups by LISTEN/NOTIFY and once by polling only.
 *
 * <p>Pairing: with one permit, grants and releases alternate, so the n-th grant (in time order)
 * follows the release of the (n−1)-th. A grant whose acquire began after that release (the
 * releasing JVM asking again before the other was queued) is no wake-up: counted as "barged".
 *
 * <p>Arguments: none (both modes), or {@code notify} / {@code polling}.
 */
public final class CrossJvmWakeUp {

  static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
  static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(3);
  static final long MEASURE_NANOS = TimeUnit.SECONDS.toNanos(8);
  static final String BULKHEAD = "bench-wake";

  /** How a JVM learns of a hand-over made in another JVM. */
  enum Mode {
    /** PostgreSQL LISTEN/NOTIFY: the release notifies the waiter's JVM (check interval 1 s). */
    NOTIFY(List.of()),
    /** No LISTEN: each JVM looks for hand-overs to its waiters every {@link #POLL_INTERVAL}. */
    POLLING(List.of(new PollingOnlyJpaStore()));

    final List<BulwarkStoreProvider> stores;

    Mode(List<BulwarkStoreProvider> stores) {
      this.stores = stores;
    }
  }

  /** The check interval of the polling-only runs (the default, 1 s, would give few samples). */
  static final String POLL_INTERVAL = "100ms";

  private CrossJvmWakeUp() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(Mode.valueOf(args[1]), Path.of(args[2]));
      return;
    }
    System.out.printf(
        "%-8s %8s %8s %8s %8s %8s %8s %7s%n",
        "mode", "calls/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "wake-ups", "barged");
    for (Mode mode : Mode.values()) {
      if (args.length == 0 || mode.name().equalsIgnoreCase(args[0])) {
        measure(mode);
      }
    }
  }

  private static BulwarkOnJpa open(Mode mode) {
    Map<String, String> config = new LinkedHashMap<>();
    if (mode == Mode.POLLING) {
      config.put("bulwark.jpa.wake-up-check-interval", POLL_INTERVAL);
    }
    config.put("bulwark.bulkhead." + BULKHEAD + ".value", "1");
    config.put("bulwark.bulkhead." + BULKHEAD + ".waiting-time", "10s");
    return new BulwarkOnJpa(config, mode.stores);
  }

  private static void measure(Mode mode) throws Exception {
    Path childRecords = Files.createTempFile("bulwark-wake-up-", ".txt");
    // this JVM's store first: it creates the tables the child then finds
    try (BulwarkOnJpa bulwark = open(mode)) {
      Process child =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  CrossJvmWakeUp.class.getName(),
                  "child",
                  mode.name(),
                  childRecords.toString())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      try (BufferedReader fromChild =
              new BufferedReader(
                  new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
          PrintStream toChild = new PrintStream(child.getOutputStream(), true, "UTF-8")) {
        BulkheadHandle bulkhead = bulwark.bulkhead(BULKHEAD);
        String ready = fromChild.readLine();
        if (!"ready".equals(ready)) {
          throw new IllegalStateException("child did not start: " + ready);
        }
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        long end = start + WARM_UP_NANOS + MEASURE_NANOS;
        toChild.println(start + " " + end);
        List<Call> calls = new ArrayList<>(take(bulkhead, "parent", start, end));
        if (!child.waitFor(60, TimeUnit.SECONDS) || child.exitValue() != 0) {
          throw new IllegalStateException("child failed");
        }
        for (String line : Files.readAllLines(childRecords)) {
          calls.add(Call.parse("child", line));
        }
        report(mode, calls, start + WARM_UP_NANOS);
      } finally {
        child.destroyForcibly();
      }
    } finally {
      Files.deleteIfExists(childRecords);
    }
  }

  private static void child(Mode mode, Path records) throws IOException {
    try (BulwarkOnJpa bulwark = open(mode);
        BufferedReader fromParent =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      BulkheadHandle bulkhead = bulwark.bulkhead(BULKHEAD);
      System.out.println("ready");
      System.out.flush();
      String[] window = fromParent.readLine().split(" ");
      List<Call> calls =
          take(bulkhead, "child", Long.parseLong(window[0]), Long.parseLong(window[1]));
      List<String> lines = new ArrayList<>();
      calls.forEach(c -> lines.add(c.asked + " " + c.granted + " " + c.released));
      Files.write(records, lines);
    }
    System.exit(0);
  }

  /** One caller: takes the permit, holds it, releases it and asks again until {@code end}. */
  private static List<Call> take(BulkheadHandle bulkhead, String jvm, long start, long end) {
    List<HeldTurns.Turn> turns;
    try {
      turns = HeldTurns.run(bulkhead::acquire, HOLD_NANOS, start, end);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    List<Call> calls = new ArrayList<>();
    turns.forEach(t -> calls.add(new Call(jvm, t.asked(), t.granted(), t.released())));
    return calls;
  }

  private static void report(Mode mode, List<Call> calls, long from) {
    calls.sort(Comparator.comparingLong(Call::granted));
    List<Long> wakeUps = new ArrayList<>();
    int barged = 0;
    long measured = 0;
    for (int n = 1; n < calls.size(); n++) {
      Call previous = calls.get(n - 1);
      Call call = calls.get(n);
      if (previous.released < from) {
        continue;
      }
      measured++;
      if (call.asked > previous.released || call.jvm.equals(previous.jvm)) {
        barged++;
      } else {
        wakeUps.add(call.granted - previous.released);
      }
    }
    long[] sorted = wakeUps.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.printf(
        "%-8s %8.0f %8.3f %8.3f %8.3f %8.3f %8d %6.1f%%%n",
        mode.name().toLowerCase(java.util.Locale.ROOT),
        measured / (MEASURE_NANOS / 1e9),
        percentile(sorted, 50),
        percentile(sorted, 90),
        percentile(sorted, 99),
        sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6,
        sorted.length,
        100.0 * barged / Math.max(1, measured));
  }

  private static double percentile(long[] sorted, int p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, index)] / 1e6;
  }

  /** One call of one JVM's caller. */
  private record Call(String jvm, long asked, long granted, long released) {
    static Call parse(String jvm, String line) {
      String[] parts = line.split(" ");
      try {
        return new Call(
            jvm, Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
      } catch (RuntimeException e) {
        throw new UncheckedIOException(new IOException("bad record line: " + line, e));
      }
    }
  }
}
