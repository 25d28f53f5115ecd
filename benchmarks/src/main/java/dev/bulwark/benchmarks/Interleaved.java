package dev.bulwark.benchmarks;

import dev.bulwark.benchmarks.jpa.JpaWorkloads;
import dev.bulwark.benchmarks.redis.RedisWorkloads;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Before and after on a loaded machine: the through-the-interceptors cases of two builds and the
 * floor, run in short slices one after the other — floor, before, after; then before, after, floor;
 * … — each in a JVM of its own (before's and the floor's from the first jar, after's from the
 * second), so that a change in the machine's load hits all three alike. Each slice's throughput is
 * divided by the floor's in the same cycle; the medians over the cycles (the first ones are
 * warm-up) are the figures, and after ÷ before per cycle says what the change did.
 *
 * <p>The JMH benchmarks ({@code RedisThroughInterceptors}, {@code JpaThroughInterceptors}) measure
 * the same cases one after the other for seconds each; on a machine whose load changes from one
 * minute to the next, that makes a ratio to a floor measured minutes apart noisy. This program
 * measures each case against its floor within a few seconds.
 *
 * <p>Arguments: {@code before=<jar>} {@code after=<jar>} {@code store=redis|jpa} (default redis),
 * {@code cases=bulkhead,writeLock,…} (default all of {@link BeforeAfter#CASES}' guarded cases of
 * the store), {@code cycles=N} (default 12), {@code warm-up=N} cycles not counted (default 3),
 * {@code slice=MILLIS} (default 1000). The children take the environment's server settings ({@code
 * BULWARK_BENCH_REDIS_URL}, {@code BULWARK_BENCH_JDBC_URL}) and {@code JAVA} for the java command
 * (default: this JVM's).
 */
public final class Interleaved {

  private Interleaved() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args[1], args[2], args[3]);
      return;
    }
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      int equals = arg.indexOf('=');
      if (equals < 0) {
        throw new IllegalArgumentException("expected key=value, got " + arg);
      }
      options.put(arg.substring(0, equals), arg.substring(equals + 1));
    }
    String store = options.getOrDefault("store", "redis");
    String before = require(options, "before");
    String after = require(options, "after");
    int cycles = Integer.parseInt(options.getOrDefault("cycles", "12"));
    int warmUp = Integer.parseInt(options.getOrDefault("warm-up", "3"));
    long slice = Long.parseLong(options.getOrDefault("slice", "1000"));
    String storeClass = store.equals("jpa") ? BeforeAfter.JPA : BeforeAfter.REDIS;
    List<BeforeAfter.Case> cases = new ArrayList<>();
    List<String> selected =
        options.containsKey("cases") ? List.of(options.get("cases").split(",")) : List.of();
    for (BeforeAfter.Case c : BeforeAfter.CASES) {
      if (c.store().equals(storeClass)
          && c.guarded()
          && (selected.isEmpty() || selected.contains(c.benchmark()))) {
        cases.add(c);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "store %s, %d cycles (%d warm-up) of %d ms slices; load %.1f%n",
        store,
        cycles,
        warmUp,
        slice,
        loadAverage());
    Map<String, Child> children = new LinkedHashMap<>();
    try {
      children.put("floor", new Child(before, store, "floors", "floor"));
      children.put("before", new Child(before, store, "guarded", "before"));
      children.put("after", new Child(after, store, "guarded", "after"));
      List<String> table = new ArrayList<>();
      for (BeforeAfter.Case c : cases) {
        table.add(measure(c, children, cycles, warmUp, slice));
      }
      System.out.printf(Locale.ROOT, "%nmedians over the cycles; load now %.1f%n", loadAverage());
      System.out.println(
          "| case | floor | before | after | after / before (per cycle) | before ops/s | after ops/s"
              + " | floor ops/s | target |");
      System.out.println("|---|---|---|---|---|---|---|---|---|");
      table.forEach(System.out::println);
    } finally {
      for (Child child : children.values()) {
        child.close();
      }
    }
  }

  private static String require(Map<String, String> options, String key) {
    String value = options.get(key);
    if (value == null) {
      throw new IllegalArgumentException("missing " + key + "=<jar>");
    }
    return value;
  }

  /** One case: every cycle runs a slice of the floor, before and after, in a rotating order. */
  private static String measure(
      BeforeAfter.Case c, Map<String, Child> children, int cycles, int warmUp, long slice) {
    int threads = c.benchmark().endsWith("OneThread") ? 1 : 8;
    List<String> order = List.of("floor", "before", "after");
    List<double[]> rows = new ArrayList<>();
    for (int cycle = 0; cycle < cycles; cycle++) {
      Map<String, Double> rates = new HashMap<>();
      for (int k = 0; k < order.size(); k++) {
        String who = order.get((cycle + k) % order.size());
        String name = who.equals("floor") ? c.floor() : c.benchmark();
        rates.put(who, children.get(who).run(name, threads, slice));
      }
      double floor = rates.get("floor");
      double[] row = {
        rates.get("before") / floor,
        rates.get("after") / floor,
        rates.get("after") / rates.get("before"),
        rates.get("before"),
        rates.get("after"),
        floor
      };
      System.out.printf(
          Locale.ROOT,
          "%-22s cycle %2d%s: before %.2f, after %.2f of the floor (%.0f, %.0f, floor %.0f ops/s)%n",
          c.benchmark(),
          cycle + 1,
          cycle < warmUp ? " (warm-up)" : "",
          row[0],
          row[1],
          row[3],
          row[4],
          row[5]);
      if (cycle >= warmUp) {
        rows.add(row);
      }
    }
    double[] median = new double[6];
    for (int f = 0; f < median.length; f++) {
      int figure = f;
      median[f] = BeforeAfter.median(rows.stream().mapToDouble(r -> r[figure]).toArray());
    }
    return String.format(
        Locale.ROOT,
        "| %s | %s | %.2f | %.2f | %.2f | %.0f | %.0f | %.0f | %s |",
        c.what(),
        c.floor(),
        median[0],
        median[1],
        median[2],
        median[3],
        median[4],
        median[5],
        c.targetText());
  }

  private static double loadAverage() {
    try {
      String line = java.nio.file.Files.readString(Path.of("/proc/loadavg"));
      return Double.parseDouble(line.split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** A child JVM that runs one side's workloads on command, one slice at a time. */
  private static final class Child implements AutoCloseable {
    private final Process process;
    private final BufferedReader replies;
    private final PrintStream commands;

    Child(String jar, String store, String kind, String label) {
      String java =
          System.getenv()
              .getOrDefault(
                  "JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
      try {
        process =
            new ProcessBuilder(
                    java, "-cp", jar, Interleaved.class.getName(), "child", store, kind, label)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      replies =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
      String ready = reply();
      if (!ready.equals("ready")) {
        throw new IllegalStateException(label + " did not start: " + ready);
      }
    }

    /** Runs {@code name} on {@code threads} threads for {@code millis}; returns calls a second. */
    double run(String name, int threads, long millis) {
      commands.println("run " + name + " " + threads + " " + millis);
      String[] reply = reply().split(" ");
      if (!reply[0].equals("ops")) {
        throw new IllegalStateException("child answered " + String.join(" ", reply));
      }
      long failures = Long.parseLong(reply[3]);
      if (failures > 0) {
        System.out.println("  " + name + ": " + failures + " calls failed: " + reply[4]);
      }
      return Long.parseLong(reply[1]) / (Long.parseLong(reply[2]) / 1e9);
    }

    private String reply() {
      try {
        String line = replies.readLine();
        while (line != null
            && !line.startsWith("ready")
            && !line.startsWith("ops")
            && !line.startsWith("failed")) {
          line = replies.readLine(); // a library's own output on standard output
        }
        if (line == null) {
          throw new IllegalStateException("child ended: exit " + process.waitFor());
        }
        return line;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void close() {
      commands.close();
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }

  // ---- the child: one side's workloads ----

  private static void child(String store, String kind, String label) throws Exception {
    Workloads workloads;
    try {
      workloads =
          switch (store + " " + kind) {
            case "redis floors" -> RedisWorkloads.floors();
            case "redis guarded" -> RedisWorkloads.guarded(label);
            case "jpa floors" -> JpaWorkloads.floors();
            case "jpa guarded" -> JpaWorkloads.guarded(label);
            default -> throw new IllegalArgumentException("no workloads " + store + " " + kind);
          };
    } catch (RuntimeException e) {
      System.out.println("failed " + e);
      System.exit(1);
      return;
    }
    System.out.println("ready");
    System.out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (workloads) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] command = line.split(" ");
        String reply =
            run(
                workloads.call(command[1]),
                Integer.parseInt(command[2]),
                Long.parseLong(command[3]));
        System.out.println(reply);
        System.out.flush();
      }
    }
    System.exit(0);
  }

  /** {@code threads} threads repeat {@code call} for {@code millis}: "ops calls nanos failures". */
  private static String run(Workloads.Call call, int threads, long millis)
      throws InterruptedException {
    LongAdder calls = new LongAdder();
    LongAdder failures = new LongAdder();
    String[] firstFailure = {"-"};
    long start = System.nanoTime();
    long end = start + TimeUnit.MILLISECONDS.toNanos(millis);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      SplittableRandom random = new SplittableRandom(t * 7919L + start);
      Thread worker =
          new Thread(
              () -> {
                while (System.nanoTime() < end) {
                  try {
                    call.call(random);
                    calls.increment();
                  } catch (RuntimeException e) {
                    failures.increment();
                    firstFailure[0] = e.getClass().getSimpleName();
                  }
                }
              });
      worker.start();
      workers.add(worker);
    }
    for (Thread worker : workers) {
      worker.join();
    }
    long nanos = System.nanoTime() - start;
    return "ops " + calls.sum() + " " + nanos + " " + failures.sum() + " " + firstFailure[0];
  }
}
