package dev.bulwark.benchmarks.redis;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.Jedis;

/**
 * How a bulkhead's hand-over cost grows with its queue: one bulkhead of 1 permit with 10, 100, 1
 * 000 and 10 000 waiters spread over {@link #CHILDREN} child JVMs. The waiters are asynchronous
 * ({@link BulkheadHandle#acquireAsync()}: no thread waits), so 10 000 need no 10 000 threads.
 *
 * <p>This JVM takes the permit, the children queue their share of waiters behind it, and this JVM
 * releases it. From then on the permit goes round: each waiter, once granted, releases at once and
 * queues again at the tail, so the queue keeps its length and every release hands over to a waiter
 * that has queued {@code length - 1} requests before. Measured, after {@link #WARM_UP_NANOS}:
 *
 * <ul>
 *   <li>the wake-up latency: from just before a release to just after the next waiter's stage
 *       completes, in another JVM or the same ({@link System#nanoTime()}, one clock on a Linux
 *       host). With one permit grants and releases alternate, so the k-th release in time order is
 *       paired with the k-th grant;
 *   <li>Redis's own figures over the measured window ({@code INFO commandstats}, {@code cpu}):
 *       script calls and server CPU per hand-over, microseconds per script call;
 *   <li>for {@link #MONITOR_NANOS} afterwards, under MONITOR: which scripts the JVMs sent (by
 *       SHA-1), how many commands each release script ran inside Redis, and the waiters' polls per
 *       second; acquires, releases and polls count those the permit batches carried too.
 * </ul>
 *
 * <p>Arguments: queue lengths (default {@code 10 100 1000 10000}); {@code rounds=N} (default 3);
 * {@code check-interval=D} sets {@code bulwark.redis.wake-up-check-interval} in every JVM (default:
 * the store's default).
 */
public final class QueueLength {

  static final int CHILDREN = 8;
  static final String PREFIX = "bench:scale-queue:";
  static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(3);
  static final long MEASURE_NANOS = TimeUnit.SECONDS.toNanos(10);
  static final long MONITOR_NANOS = TimeUnit.SECONDS.toNanos(2);

  /** Every waiter's waiting time: longer than a run, so nobody gives up while measured. */
  static final String WAITING_TIME = "600s";

  /** The store's permit scripts, named by the SHA-1 they are sent with. */
  static final Map<String, String> SCRIPTS = StoreScripts.byHash();

  private QueueLength() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args.length > 1 ? args[1] : "");
      return;
    }
    List<Integer> lengths = new ArrayList<>();
    int rounds = 3;
    String checkInterval = "";
    for (String arg : args) {
      if (arg.startsWith("rounds=")) {
        rounds = Integer.parseInt(arg.substring("rounds=".length()));
      } else if (arg.startsWith("check-interval=")) {
        checkInterval = arg.substring("check-interval=".length());
      } else {
        lengths.add(Integer.parseInt(arg));
      }
    }
    if (lengths.isEmpty()) {
      lengths = List.of(10, 100, 1_000, 10_000);
    }
    List<ChildJvm> children = new ArrayList<>();
    Map<Integer, List<Result>> results = new TreeMap<>();
    try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
      for (int c = 0; c < CHILDREN; c++) {
        children.add(
            new ChildJvm(
                QueueLength.class,
                List.of("-Xmx384m", "-XX:+UseSerialGC"),
                checkInterval.isEmpty() ? "-" : checkInterval));
      }
      for (ChildJvm child : children) {
        child.expect("ready");
      }
      Result.printHeader();
      for (int round = 1; round <= rounds; round++) {
        for (int length : lengths) {
          Result result = run(redis, children, length, round, checkInterval);
          result.print();
          results.computeIfAbsent(length, l -> new ArrayList<>()).add(result);
        }
      }
      System.out.println();
      System.out.println("medians over " + rounds + " rounds:");
      Result.printHeader();
      for (List<Result> perLength : results.values()) {
        Result.median(perLength).print();
      }
    } finally {
      for (ChildJvm child : children) {
        child.close();
      }
      try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
        System.out.println("deleted " + KeySweep.delete(redis, PREFIX + "*") + " keys");
      }
    }
  }

  static Map<String, String> engineConfig(String bulkhead, String checkInterval) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.key-prefix", PREFIX);
    config.put("bulwark.bulkhead." + bulkhead + ".value", "1");
    config.put("bulwark.bulkhead." + bulkhead + ".waiting-time", WAITING_TIME);
    if (!checkInterval.isEmpty() && !checkInterval.equals("-")) {
      config.put("bulwark.redis.wake-up-check-interval", checkInterval);
    }
    return config;
  }

  private static Result run(
      Jedis redis, List<ChildJvm> children, int length, int round, String checkInterval)
      throws Exception {
    String name = "bench-queue-" + length + "-" + round;
    String queueKey = PREFIX + "{b:" + name + "}:queue";
    try (BulwarkOnRedis bulwark = new BulwarkOnRedis(engineConfig(name, checkInterval))) {
      BulkheadHandle bulkhead = bulwark.bulkhead(name);
      Permit first = bulkhead.acquire();
      for (int c = 0; c < CHILDREN; c++) {
        int share = length / CHILDREN + (c < length % CHILDREN ? 1 : 0);
        children.get(c).send("run " + name + " " + share);
      }
      for (ChildJvm child : children) {
        child.expect("filled");
      }
      long queuedAtStart = redis.llen(queueKey);
      long start = System.nanoTime();
      first.close();
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(WARM_UP_NANOS));
      long from = System.nanoTime();
      RedisStats before = RedisStats.read(redis);
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(MEASURE_NANOS));
      RedisStats after = RedisStats.read(redis);
      long to = System.nanoTime();
      long queuedAtEnd = redis.llen(queueKey);
      List<MonitorTap.Command> monitored;
      long monitorFrom;
      long monitorTo;
      try (MonitorTap tap = new MonitorTap()) {
        monitorFrom = System.nanoTime();
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(MONITOR_NANOS));
        monitorTo = System.nanoTime();
        monitored = tap.drain();
      }
      for (ChildJvm child : children) {
        child.send("stop");
      }
      List<long[]> calls = new ArrayList<>();
      long failures = 0;
      for (ChildJvm child : children) {
        String[] done = child.expect("done").split(" ");
        Path file = Path.of(done[1]);
        failures += Long.parseLong(done[2]);
        for (String line : Files.readAllLines(file)) {
          String[] parts = line.split(" ");
          calls.add(
              new long[] {
                Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])
              });
        }
        Files.delete(file);
      }
      return Result.of(
          length,
          round,
          start,
          calls,
          from,
          to,
          before,
          after,
          monitored,
          monitorFrom,
          monitorTo,
          queuedAtStart,
          queuedAtEnd,
          failures);
    } finally {
      KeySweep.delete(redis, PREFIX + "{b:" + name + "}*");
    }
  }

  /** What one run gave. */
  private record Result(
      int length,
      int round,
      double handOversPerSecond,
      double p50,
      double p90,
      double p99,
      double max,
      int wakeUps,
      int barged,
      double scriptsPerHandOver,
      double microsPerScript,
      double redisCpuPerHandOver,
      double releaseCommands,
      int releaseCommandsMax,
      double releasesPerHandOver,
      double acquiresPerHandOver,
      double pollsPerSecond,
      double renewsPerSecond,
      long others,
      long queuedAtStart,
      long queuedAtEnd,
      long failures,
      double loadAverage) {

    static Result of(
        int length,
        int round,
        long start,
        List<long[]> calls,
        long from,
        long to,
        RedisStats before,
        RedisStats after,
        List<MonitorTap.Command> monitored,
        long monitorFrom,
        long monitorTo,
        long queuedAtStart,
        long queuedAtEnd,
        long failures) {
      // releases in time order: this JVM's first one, then every waiter's
      long[] releases = new long[calls.size() + 1];
      releases[0] = start;
      for (int i = 0; i < calls.size(); i++) {
        releases[i + 1] = calls.get(i)[2];
      }
      java.util.Arrays.sort(releases);
      List<long[]> grants = new ArrayList<>(calls);
      grants.sort(Comparator.comparingLong(c -> c[1]));
      List<Long> latencies = new ArrayList<>();
      int barged = 0;
      for (int k = 0; k < grants.size() && k < releases.length; k++) {
        if (releases[k] < from || releases[k] > to) {
          continue;
        }
        long[] grant = grants.get(k);
        if (grant[0] > releases[k]) {
          barged++;
        } else {
          latencies.add(grant[1] - releases[k]);
        }
      }
      long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
      double seconds = (to - from) / 1e9;
      long handOvers = sorted.length + barged;
      long monitoredHandOvers =
          grants.stream().filter(g -> g[1] >= monitorFrom && g[1] <= monitorTo).count();
      Scripts scripts = Scripts.of(monitored);
      double monitorSeconds = (monitorTo - monitorFrom) / 1e9;
      return new Result(
          length,
          round,
          handOvers / seconds,
          Percentiles.millis(sorted, 50),
          Percentiles.millis(sorted, 90),
          Percentiles.millis(sorted, 99),
          Percentiles.millis(sorted, 100),
          sorted.length,
          barged,
          (after.calls(before, "evalsha") + after.calls(before, "eval")) / (double) handOvers,
          (after.micros(before, "evalsha") + after.micros(before, "eval"))
              / (double) (after.calls(before, "evalsha") + after.calls(before, "eval")),
          (after.cpuMicros() - before.cpuMicros()) / (double) handOvers,
          scripts.meanInside("permit_release"),
          scripts.maxInside("permit_release"),
          scripts.count("permit_release") / (double) monitoredHandOvers,
          scripts.count("permit_acquire") / (double) monitoredHandOvers,
          scripts.count("permit_poll") / monitorSeconds,
          scripts.count("renew") / monitorSeconds,
          scripts.others,
          queuedAtStart,
          queuedAtEnd,
          failures,
          MachineLoad.oneMinute());
    }

    static void printHeader() {
      System.out.printf(
          "%6s %5s %9s %8s %8s %8s %8s %7s %6s %8s %8s %9s %9s %8s %8s %8s %8s %7s %13s %5s%n",
          "queue",
          "round",
          "handovr/s",
          "p50 ms",
          "p90 ms",
          "p99 ms",
          "max ms",
          "wakeups",
          "barged",
          "scr/hand",
          "us/scr",
          "cpu us/ho",
          "rel cmds",
          "rel max",
          "acq/ho",
          "polls/s",
          "renew/s",
          "others",
          "queued st/end",
          "load");
    }

    void print() {
      System.out.printf(
          "%6d %5s %9.0f %8.3f %8.3f %8.3f %8.3f %7d %6d %8.2f %8.1f %9.1f %9.2f %8d %8.2f %8.0f"
              + " %8.1f %7d %6d/%-6d %5.1f%s%n",
          length,
          round == 0 ? "med" : Integer.toString(round),
          handOversPerSecond,
          p50,
          p90,
          p99,
          max,
          wakeUps,
          barged,
          scriptsPerHandOver,
          microsPerScript,
          redisCpuPerHandOver,
          releaseCommands,
          releaseCommandsMax,
          acquiresPerHandOver,
          pollsPerSecond,
          renewsPerSecond,
          others,
          queuedAtStart,
          queuedAtEnd,
          loadAverage,
          failures == 0 ? "" : "  (" + failures + " waiters failed)");
    }

    static Result median(List<Result> rounds) {
      Result any = rounds.get(0);
      return new Result(
          any.length,
          0,
          median(rounds, Result::handOversPerSecond),
          median(rounds, Result::p50),
          median(rounds, Result::p90),
          median(rounds, Result::p99),
          median(rounds, Result::max),
          (int) median(rounds, Result::wakeUps),
          (int) median(rounds, Result::barged),
          median(rounds, Result::scriptsPerHandOver),
          median(rounds, Result::microsPerScript),
          median(rounds, Result::redisCpuPerHandOver),
          median(rounds, Result::releaseCommands),
          (int) median(rounds, Result::releaseCommandsMax),
          median(rounds, Result::releasesPerHandOver),
          median(rounds, Result::acquiresPerHandOver),
          median(rounds, Result::pollsPerSecond),
          median(rounds, Result::renewsPerSecond),
          (long) median(rounds, Result::others),
          (long) median(rounds, Result::queuedAtStart),
          (long) median(rounds, Result::queuedAtEnd),
          (long) median(rounds, Result::failures),
          median(rounds, Result::loadAverage));
    }

    private static double median(
        List<Result> rounds, java.util.function.ToDoubleFunction<Result> figure) {
      return Percentiles.median(rounds.stream().mapToDouble(figure).toArray());
    }
  }

  /** The scripts a MONITOR recording shows this benchmark's connections sending. */
  private static final class Scripts {
    final Map<String, List<Integer>> inside = new HashMap<>();

    /** Operations that travelled in permit batches, by the single script each stands for. */
    final Map<String, Long> batched = new HashMap<>();

    long others;

    static Scripts of(List<MonitorTap.Command> commands) {
      Scripts scripts = new Scripts();
      Set<String> ours = ConcurrentHashMap.newKeySet();
      for (MonitorTap.Command c : commands) {
        if (c.fromClient() && c.line().contains(PREFIX)) {
          ours.add(c.client());
        }
      }
      List<Integer> current = null;
      for (MonitorTap.Command c : commands) {
        if (!c.fromClient()) {
          if (current != null) {
            current.set(current.size() - 1, current.get(current.size() - 1) + 1);
          }
        } else if (ours.contains(c.client()) && c.name().equals("evalsha")) {
          String sha = c.line().split("\"")[3];
          String script = SCRIPTS.getOrDefault(sha, "other");
          current = scripts.inside.computeIfAbsent(script, n -> new ArrayList<>());
          current.add(0);
          if (script.equals("permit_batch")) {
            scripts.batched.merge(
                "permit_acquire", (long) BatchedOperations.count(c, "Aa"), Long::sum);
            scripts.batched.merge("permit_poll", (long) BatchedOperations.count(c, "P"), Long::sum);
            scripts.batched.merge(
                "permit_release", (long) BatchedOperations.count(c, "R"), Long::sum);
          }
        } else {
          current = null;
          if (!ours.contains(c.client())) {
            scripts.others++;
          }
        }
      }
      return scripts;
    }

    /** The calls of {@code script} and the operations of its kind that batches carried. */
    long count(String script) {
      return inside.getOrDefault(script, List.of()).size() + batched.getOrDefault(script, 0L);
    }

    double meanInside(String script) {
      return inside.getOrDefault(script, List.of()).stream()
          .mapToInt(Integer::intValue)
          .average()
          .orElse(Double.NaN);
    }

    int maxInside(String script) {
      return inside.getOrDefault(script, List.of()).stream()
          .mapToInt(Integer::intValue)
          .max()
          .orElse(0);
    }
  }

  // ---- the child JVM: one share of the waiters ----

  private static void child(String checkInterval) throws Exception {
    ChildJvm.Parent parent = new ChildJvm.Parent();
    parent.send("ready");
    for (String command = parent.receive(); command != null; command = parent.receive()) {
      String[] parts = command.split(" ");
      if (parts[0].equals("run")) {
        new Waiters(parent, parts[1], Integer.parseInt(parts[2]), checkInterval).run();
      }
    }
    System.exit(0);
  }

  /** This JVM's waiters of one run: each, once granted, releases at once and queues again. */
  private static final class Waiters {
    private final ChildJvm.Parent parent;
    private final int count;
    private final BulwarkOnRedis bulwark;
    private final BulkheadHandle bulkhead;

    /** Releases and queues again off Bulwark's own thread, as its documentation asks. */
    private final ExecutorService workers =
        Executors.newFixedThreadPool(
            2,
            task -> {
              Thread thread = new Thread(task, "releaser");
              thread.setDaemon(true); // a parent that died ends this JVM
              return thread;
            });

    private final Set<CompletableFuture<Permit>> waiting = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<long[]> calls = new ConcurrentLinkedQueue<>();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean stopping;

    Waiters(ChildJvm.Parent parent, String name, int count, String checkInterval) {
      this.parent = parent;
      this.count = count;
      this.bulwark = new BulwarkOnRedis(engineConfig(name, checkInterval));
      this.bulkhead = bulwark.bulkhead(name);
    }

    void run() throws IOException, InterruptedException {
      try {
        for (int i = 0; i < count; i++) {
          ask();
        }
        parent.send("filled");
        String command = parent.receive();
        if (!"stop".equals(command)) {
          throw new IllegalStateException("expected stop, got " + command);
        }
        stopping = true;
        for (CompletableFuture<Permit> stage : waiting) {
          stage.cancel(false);
        }
        workers.shutdown();
        if (!workers.awaitTermination(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("releases did not finish within 60 s");
        }
        Path file = Files.createTempFile("bulwark-queue-", ".txt");
        List<String> lines = new ArrayList<>();
        for (long[] call : calls) {
          lines.add(call[0] + " " + call[1] + " " + call[2]);
        }
        Files.write(file, lines);
        parent.send("done " + file + " " + failures.get());
      } finally {
        bulwark.close();
      }
    }

    private void ask() {
      long asked = System.nanoTime();
      CompletableFuture<Permit> stage = bulkhead.acquireAsync().toCompletableFuture();
      waiting.add(stage);
      stage.whenComplete(
          (permit, failure) -> {
            long granted = System.nanoTime();
            waiting.remove(stage);
            if (failure != null) {
              if (!stopping) {
                failures.incrementAndGet();
              }
              return;
            }
            workers.execute(
                () -> {
                  long released = System.nanoTime();
                  permit.close();
                  calls.add(new long[] {asked, granted, released});
                  if (!stopping) {
                    ask();
                  }
                });
          });
    }
  }
}
