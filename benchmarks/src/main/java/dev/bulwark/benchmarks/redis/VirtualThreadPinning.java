package dev.bulwark.benchmarks.redis;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import redis.clients.jedis.Jedis;

/**
 * {@link #THREADS} threads queued on one bulkhead of {@link #PERMITS} permits, each taking a permit
 * once with the blocking {@link BulkheadHandle#acquire()}, holding it {@link #HOLD_MILLIS} ms and
 * releasing it: once with virtual threads, once with as many platform threads, on the local store
 * and on the Redis store. Flight Recorder records {@code jdk.VirtualThreadPinned} (threshold 0,
 * with stack traces) throughout: a virtual thread that blocks while pinned to its carrier shows up
 * there. A control first pins one virtual thread on purpose (it sleeps in a class initializer,
 * which pins on every JDK), so that "0 pinned" means the event was recorded and did not occur.
 *
 * <p>Needs Java 21 or later; the module is compiled for 17, so virtual threads are reached through
 * reflection. On an older JVM it says so and ends with status 2.
 *
 * <p>Arguments: {@code rounds=N} (default 3). {@code -Dbulwark-bench.pinned-stacks=true} prints
 * every pinned event whole, with its stack (raise Flight Recorder's stack depth, 64 frames, with
 * {@code -XX:FlightRecorderOptions:stackdepth=N} to see deep ones entire).
 */
public final class VirtualThreadPinning {

  static final int THREADS = 10_000;
  static final int PERMITS = 10;
  static final long HOLD_MILLIS = 1;
  static final String PREFIX = "bench:scale-vt:";
  static final String BULKHEAD = "bench-vt";

  private VirtualThreadPinning() {}

  public static void main(String[] args) throws Exception {
    int rounds = 3;
    for (String arg : args) {
      if (arg.startsWith("rounds=")) {
        rounds = Integer.parseInt(arg.substring("rounds=".length()));
      }
    }
    ThreadFactory virtual = virtualThreads();
    if (virtual == null) {
      System.out.println(
          "virtual threads need Java 21 or later; this JVM is "
              + System.getProperty("java.version")
              + ": nothing measured");
      System.exit(2);
    }
    System.out.println("JVM " + System.getProperty("java.vm.version") + ", " + Runtime.version());
    System.out.println("control: " + pinnedControl(virtual) + " pinned event(s) from the control");
    Map<String, List<Result>> results = new TreeMap<>();
    Result.printHeader();
    try {
      for (int round = 1; round <= rounds; round++) {
        for (String store : List.of("local", "redis")) {
          for (String kind : List.of("virtual", "platform")) {
            Result result = run(store, kind, kind.equals("virtual") ? virtual : Thread::new, round);
            result.print();
            results.computeIfAbsent(store + " " + kind, k -> new ArrayList<>()).add(result);
          }
        }
      }
      System.out.println();
      System.out.println("medians over " + rounds + " rounds:");
      Result.printHeader();
      for (List<Result> perRun : results.values()) {
        Result.median(perRun).print();
      }
    } finally {
      try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
        System.out.println("deleted " + KeySweep.delete(redis, PREFIX + "*") + " keys");
      }
    }
  }

  /** {@code Thread.ofVirtual().factory()}, or null before Java 21. */
  static ThreadFactory virtualThreads() {
    try {
      Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
      return (ThreadFactory)
          Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  private static Result run(String store, String kind, ThreadFactory threads, int round)
      throws Exception {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", store);
    config.put("bulwark.redis.url", RedisTarget.URL);
    config.put("bulwark.redis.key-prefix", PREFIX);
    config.put("bulwark.bulkhead." + BULKHEAD + ".value", Integer.toString(PERMITS));
    config.put("bulwark.bulkhead." + BULKHEAD + ".waiting-time", "300s");
    ThreadMXBean platform = ManagementFactory.getThreadMXBean();
    try (BulwarkEngine engine = BulwarkEngine.start(ConfigLookup.of(Map.copyOf(config)));
        Recording recording = pinnedRecording()) {
      BulkheadHandle bulkhead = engine.programmatic().bulkhead(BULKHEAD);
      bulkhead.acquire().close(); // connects and loads the scripts before the clock starts
      platform.resetPeakThreadCount();
      Map<String, LongAdder> failures = new ConcurrentHashMap<>();
      recording.start();
      long start = System.nanoTime();
      List<Thread> started = new ArrayList<>(THREADS);
      for (int t = 0; t < THREADS; t++) {
        Thread thread =
            threads.newThread(
                () -> {
                  try {
                    Permit permit = bulkhead.acquire();
                    try {
                      Thread.sleep(HOLD_MILLIS);
                    } finally {
                      permit.close();
                    }
                  } catch (RuntimeException | InterruptedException e) {
                    failures.computeIfAbsent(rootCause(e), k -> new LongAdder()).increment();
                  }
                });
        thread.start();
        started.add(thread);
      }
      for (Thread thread : started) {
        thread.join();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      recording.stop();
      Pinned pinned = Pinned.of(recording);
      return new Result(
          store,
          kind,
          round,
          THREADS / seconds,
          seconds,
          pinned.count,
          pinned.where,
          platform.getPeakThreadCount(),
          failures.values().stream().mapToLong(LongAdder::sum).sum(),
          failures.entrySet().stream()
              .map(e -> e.getValue().sum() + "x " + e.getKey())
              .collect(Collectors.joining("; ")),
          MachineLoad.oneMinute());
    }
  }

  private static Recording pinnedRecording() {
    Recording recording = new Recording();
    recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
    recording.enable("jdk.VirtualThreadSubmitFailed");
    return recording;
  }

  /** The innermost cause's class and message: what made an acquire fail. */
  private static String rootCause(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(root.getMessage()).replaceAll("PT-?[0-9.]+S", "PT<d>S");
    return root.getClass().getSimpleName() + ": " + message;
  }

  /** Pins one virtual thread on purpose: it sleeps inside a class initializer. */
  private static long pinnedControl(ThreadFactory virtual) throws Exception {
    try (Recording recording = pinnedRecording()) {
      recording.start();
      Thread thread = virtual.newThread(SleepsWhileInitialized::touch);
      thread.start();
      thread.join();
      recording.stop();
      return Pinned.of(recording).count;
    }
  }

  /** Its initializer sleeps: a virtual thread that initializes it blocks while pinned. */
  private static final class SleepsWhileInitialized {
    static {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    static void touch() {
      // initializing the class is the point
    }
  }

  /** The pinned events of a recording, and the frames they were pinned in, most frequent first. */
  private record Pinned(long count, String where) {

    static Pinned of(Recording recording) throws Exception {
      Path file = Files.createTempFile("bulwark-pinned-", ".jfr");
      try {
        recording.dump(file);
        Map<String, Long> frames = new TreeMap<>();
        long count = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
          if (!event.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
            continue;
          }
          count++;
          String frame =
              event.getStackTrace() == null ? "?" : cause(event.getStackTrace().getFrames());
          if (event.hasField("pinnedReason")) {
            frame = event.getString("pinnedReason") + ": " + frame;
          }
          if (Boolean.getBoolean("bulwark-bench.pinned-stacks")) {
            System.out.println("pinned: " + event);
          }
          frames.merge(frame, 1L, Long::sum);
        }
        String where =
            frames.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(3)
                .map(e -> e.getValue() + "x " + e.getKey())
                .collect(Collectors.joining("; "));
        return new Pinned(count, where);
      } finally {
        Files.deleteIfExists(file);
      }
    }
  }

  /**
   * Where a pinned thread blocked, and why it could not unmount: the top frame, then the nearest
   * frame that pins (a class initializer or a native method, other than the continuation's own
   * entry at the bottom of every virtual thread), else the nearest Bulwark or Jedis frame.
   */
  static String cause(List<RecordedFrame> frames) {
    if (frames.isEmpty()) {
      return "?";
    }
    String top = name(frames.get(0));
    for (RecordedFrame frame : frames) {
      boolean mount = frame.getMethod().getType().getName().equals("jdk.internal.vm.Continuation");
      if (!mount
          && (frame.getMethod().getName().equals("<clinit>") || "Native".equals(frame.getType()))) {
        return top + " under " + name(frame) + " (" + frame.getType() + ")";
      }
    }
    for (RecordedFrame frame : frames) {
      String type = frame.getMethod().getType().getName();
      if (type.startsWith("dev.bulwark.") || type.startsWith("redis.clients.")) {
        return top + " under " + name(frame);
      }
    }
    return top;
  }

  private static String name(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }

  /** One run: a store and a kind of thread. */
  private record Result(
      String store,
      String kind,
      int round,
      double callsPerSecond,
      double seconds,
      long pinned,
      String where,
      int peakPlatformThreads,
      long failures,
      String failedWith,
      double load) {

    static void printHeader() {
      System.out.printf(
          "%-6s %-9s %5s %9s %8s %7s %13s %8s %5s  %s%n",
          "store",
          "threads",
          "round",
          "calls/s",
          "seconds",
          "pinned",
          "peak threads",
          "failures",
          "load",
          "pinned in");
    }

    void print() {
      System.out.printf(
          "%-6s %-9s %5s %9.0f %8.2f %7d %13d %8d %5.1f  %s%n",
          store,
          kind,
          round == 0 ? "med" : Integer.toString(round),
          callsPerSecond,
          seconds,
          pinned,
          peakPlatformThreads,
          failures,
          load,
          where + (failedWith.isEmpty() ? "" : "  failed: " + failedWith));
    }

    static Result median(List<Result> rounds) {
      Result any = rounds.get(0);
      return new Result(
          any.store,
          any.kind,
          0,
          median(rounds, Result::callsPerSecond),
          median(rounds, Result::seconds),
          (long) median(rounds, Result::pinned),
          "",
          (int) median(rounds, Result::peakPlatformThreads),
          (long) median(rounds, Result::failures),
          "",
          median(rounds, Result::load));
    }

    private static double median(List<Result> rounds, ToDoubleFunction<Result> figure) {
      return Percentiles.median(rounds.stream().mapToDouble(figure).toArray());
    }
  }
}
