package dev.bulwark.benchmarks.redis;

import com.sun.management.OperatingSystemMXBean;
import dev.bulwark.LockMode;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Counts the commands each library sends on the wire per operation of {@link RedisBenchmark},
 * uncontended: MONITOR records a fixed number of calls, and only what the benchmark's own
 * connections sent counts ({@link SentCommands}); commands that scripts run inside Redis are shown
 * apart. A second, timed pass runs without MONITOR (which slows the server down): calls per second,
 * and per call the CPU time of this JVM (client), of Redis, and of the scripts inside Redis ({@link
 * ServerTime}). On a small machine where client and Redis share the cores, these say which side a
 * library's cost is on.
 *
 * <p>Arguments: the thread counts to try, by default {@code 1 8}.
 */
public final class RoundTrips {

  static final int CALLS = 2_000;

  /** Enough for the JIT to compile the client's hot path before its CPU time is taken. */
  static final int WARM_UP_CALLS = 5_000;

  static final int TIMED_CALLS = 10_000;

  /** One call of an operation, on the calling thread's own key. */
  @FunctionalInterface
  interface Operation {
    Object call(Libraries libraries, String key) throws Exception;
  }

  static Map<String, Operation> operations() {
    Map<String, Operation> operations = new LinkedHashMap<>();
    operations.put("floorOneRoundTrip", (l, key) -> l.floor().oneRoundTrip(key));
    operations.put("floorTwoRoundTrips", (l, key) -> l.floor().twoRoundTrips(key));
    operations.put(
        "bulwarkBulkhead",
        (l, key) -> {
          l.bulwark().bulkhead();
          return null;
        });
    operations.put("bulwarkRateLimit", (l, key) -> l.bulwark().rateLimit());
    operations.put("bulwarkWriteLock", (l, key) -> l.bulwark().lock(key, LockMode.WRITE));
    operations.put("bulwarkReadLock", (l, key) -> l.bulwark().lock("shared", LockMode.READ));
    operations.put(
        "redissonPermitExpirableSemaphore", (l, key) -> l.redisson().expirableSemaphore());
    operations.put("redissonSemaphore", (l, key) -> l.redisson().semaphore());
    operations.put(
        "redissonWriteLock",
        (l, key) -> {
          l.redisson().writeLock(l.redisson().readWriteLock(key));
          return null;
        });
    operations.put(
        "redissonReadLock",
        (l, key) -> {
          l.redisson().readLock(l.redisson().readWriteLock("shared"));
          return null;
        });
    operations.put("redissonRateLimiter", (l, key) -> l.redisson().rateLimit());
    operations.put("bucket4jTryConsume", (l, key) -> l.bucket4j().tryConsume());
    return operations;
  }

  public static void main(String[] args) throws Exception {
    List<Integer> threadCounts = new ArrayList<>();
    for (String arg : args) {
      threadCounts.add(Integer.parseInt(arg));
    }
    if (threadCounts.isEmpty()) {
      threadCounts = List.of(1, 8);
    }
    System.out.printf(
        "%-34s %7s %9s %9s %9s %9s %9s %9s  %s%n",
        "operation",
        "threads",
        "cmds/call",
        "in script",
        "calls/s",
        "client us",
        "redis us",
        "script us",
        "sent per call");
    try (Libraries libraries = new Libraries(1_000_000);
        ServerTime server = new ServerTime()) {
      for (Map.Entry<String, Operation> operation : operations().entrySet()) {
        for (int threads : threadCounts) {
          try {
            // the first call opens the library, on this thread: the pool's threads then share it
            operation.getValue().call(libraries, "bench:thread-0");
            run(libraries, operation.getValue(), threads, WARM_UP_CALLS);
            List<MonitorTap.Command> commands;
            try (MonitorTap tap = new MonitorTap()) {
              run(libraries, operation.getValue(), threads, CALLS);
              commands = tap.drain();
            }
            report(
                operation.getKey(),
                threads,
                commands,
                Timing.of(
                    server, () -> run(libraries, operation.getValue(), threads, TIMED_CALLS)));
          } catch (Exception | LinkageError e) {
            System.out.printf("%-34s not measured: %s%n", operation.getKey(), e);
          }
        }
      }
    }
  }

  private static void run(Libraries libraries, Operation operation, int threads, int calls)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String key = "bench:thread-" + t;
        int share = calls / threads + (t < calls % threads ? 1 : 0);
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < share; i++) {
                    operation.call(libraries, key);
                  }
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Per call, of the timed pass: throughput and CPU time of this JVM and of Redis. */
  private record Timing(
      double callsPerSecond, double clientMicros, double redisMicros, double scriptMicros) {

    interface Pass {
      void run() throws Exception;
    }

    static Timing of(ServerTime server, Pass pass) throws Exception {
      OperatingSystemMXBean os =
          (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpu = os.getProcessCpuTime();
      long redis = server.cpuMicros();
      long scripts = server.scriptMicros();
      long start = System.nanoTime();
      pass.run();
      double seconds = (System.nanoTime() - start) / 1e9;
      double calls = TIMED_CALLS;
      return new Timing(
          calls / seconds,
          (os.getProcessCpuTime() - cpu) / 1e3 / calls,
          (server.cpuMicros() - redis) / calls,
          (server.scriptMicros() - scripts) / calls);
    }
  }

  private static void report(
      String name, int threads, List<MonitorTap.Command> commands, Timing timing) {
    SentCommands sent = SentCommands.of(commands);
    System.out.printf(
        "%-34s %7d %9.2f %9.1f %9.0f %9.1f %9.1f %9.1f  %s%s%n",
        name,
        threads,
        sent.total() / (double) CALLS,
        sent.inScripts() / (double) CALLS,
        timing.callsPerSecond(),
        timing.clientMicros(),
        timing.redisMicros(),
        timing.scriptMicros(),
        sent.perCall(CALLS),
        sent.others() == 0
            ? ""
            : "  (left out: " + sent.others() + " commands of other connections)");
  }

  private RoundTrips() {}
}
