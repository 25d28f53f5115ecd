package dev.bulwark.benchmarks.redis;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.benchmarks.jpa.BulwarkOnJpa;
import dev.bulwark.benchmarks.jpa.PostgresTarget;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import redis.clients.jedis.Jedis;

/**
 * Waiting at scale: {@code N} threads blocked in {@link BulkheadHandle#acquire()} on one bulkhead
 * of {@link #PERMITS} permit, in one JVM, for N = 10, 100, 1,000 and 10,000. Each thread, once
 * granted, holds the permit {@link #HOLD_MILLIS} ms, releases it and asks again at once, so the
 * queue keeps its length and the store hands over all the time. The permit is held by this program
 * while the threads queue up, then released.
 *
 * <p>Reported per N, over {@link #MEASURE_NANOS} after {@link #WARM_UP_NANOS}: failed acquires (any
 * exception while the run is not stopping, with its root cause), hand-overs a second, and what the
 * store served: on Redis the commands a second ({@code INFO commandstats}, every command, including
 * those a script runs), the script calls a second, and for {@link #MONITOR_NANOS} under MONITOR the
 * script calls a second by script (named by the SHA-1 the store sends) and the poll operations the
 * permit batches carried (the polls a second count both); on PostgreSQL the transactions a second
 * of the benchmark's database ({@code pg_stat_database}, whose counters a backend publishes about
 * once a second, so give the database to the benchmark alone).
 *
 * <p>Arguments: {@code store=redis|jpa} (default redis), {@code threads=platform|virtual} (default
 * platform; virtual needs Java 21 or later), {@code waiters=10,100,…} (default 10, 100, 1,000 and
 * 10,000 on Redis, 1,000 on PostgreSQL), {@code rounds=N} (default 1). Use a Redis server or a
 * database of the benchmark's own: the counters are server-wide.
 */
public final class WaitersAtScale {

  static final int PERMITS = 1;
  static final long HOLD_MILLIS = 1;
  static final String PREFIX = "bench:scale-waiters:";
  static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(3);
  static final long MEASURE_NANOS = TimeUnit.SECONDS.toNanos(10);
  static final long MONITOR_NANOS = TimeUnit.SECONDS.toNanos(2);

  /** How long the first hand-over may take before the run is measured anyway. */
  static final long FIRST_GRANT_NANOS = TimeUnit.SECONDS.toNanos(60);

  /** Longer than any run: a waiter that fails did not run out of time. */
  static final String WAITING_TIME = "600s";

  /** A platform thread's stack: 10,000 of the default size would reserve 10 GB. */
  static final long PLATFORM_STACK = 256 * 1024;

  private WaitersAtScale() {}

  public static void main(String[] args) throws Exception {
    String store = "redis";
    String kind = "platform";
    List<Integer> counts = new ArrayList<>();
    int rounds = 1;
    for (String arg : args) {
      String value = arg.substring(arg.indexOf('=') + 1);
      if (arg.startsWith("store=")) {
        store = value;
      } else if (arg.startsWith("threads=")) {
        kind = value;
      } else if (arg.startsWith("rounds=")) {
        rounds = Integer.parseInt(value);
      } else if (arg.startsWith("waiters=")) {
        for (String count : value.split(",")) {
          counts.add(Integer.parseInt(count.trim()));
        }
      } else {
        throw new IllegalArgumentException("unknown argument " + arg);
      }
    }
    if (counts.isEmpty()) {
      counts = store.equals("jpa") ? List.of(1_000) : List.of(10, 100, 1_000, 10_000);
    }
    ThreadFactory threads =
        kind.equals("virtual")
            ? VirtualThreadPinning.virtualThreads()
            : task -> new Thread(null, task, "waiter", PLATFORM_STACK);
    if (threads == null) {
      System.out.println("virtual threads need Java 21 or later; this JVM is " + Runtime.version());
      System.exit(2);
    }
    System.out.println(
        "store "
            + store
            + ", "
            + kind
            + " threads, JVM "
            + Runtime.version()
            + ", bulkhead of "
            + PERMITS
            + ", hold "
            + HOLD_MILLIS
            + " ms");
    printHeader();
    for (int round = 1; round <= rounds; round++) {
      for (int count : counts) {
        String name = "bench-waiters-" + count + "-" + round + "-" + System.nanoTime() % 100_000;
        Run run = store.equals("jpa") ? new JpaRun(name) : new RedisRun(name);
        try {
          print(count, round, run.measure(count, threads));
        } finally {
          run.close();
        }
      }
    }
  }

  /** What one run gave. */
  record Result(
      long failures,
      long failedWaiters,
      String failedWith,
      double firstGrantSeconds,
      double handOversPerSecond,
      double commandsPerSecond,
      double scriptsPerSecond,
      double pollsPerSecond,
      String byScript,
      long stuck,
      double load) {}

  static void printHeader() {
    System.out.printf(
        "%7s %5s %8s %8s %8s %10s %10s %10s %9s %6s %5s  %s%n",
        "waiters",
        "round",
        "failed",
        "failers",
        "1st s",
        "handover/s",
        "cmds/s",
        "scripts/s",
        "polls/s",
        "stuck",
        "load",
        "script calls/s by script (MONITOR); failures");
  }

  static void print(int count, int round, Result r) {
    System.out.printf(
        "%7d %5d %8d %8d %8.2f %10.0f %10.0f %10.0f %9.0f %6d %5.1f  %s%s%n",
        count,
        round,
        r.failures,
        r.failedWaiters,
        r.firstGrantSeconds,
        r.handOversPerSecond,
        r.commandsPerSecond,
        r.scriptsPerSecond,
        r.pollsPerSecond,
        r.stuck,
        r.load,
        r.byScript,
        r.failedWith.isEmpty() ? "" : "; failed: " + r.failedWith);
  }

  /** One store's run: the bulkhead and the store's own counters. */
  abstract static class Run implements AutoCloseable {

    abstract BulkheadHandle bulkhead();

    /** The store's counters now: commands (or transactions) and script calls so far. */
    abstract long[] counters() throws Exception;

    /** Script calls by name over a short window, and how many of them were polls. */
    abstract Map<String, Long> byScript() throws Exception;

    Result measure(int count, ThreadFactory threads) throws Exception {
      BulkheadHandle bulkhead = bulkhead();
      Permit first = bulkhead.acquire();
      AtomicLong grants = new AtomicLong();
      Map<String, LongAdder> failures = new ConcurrentHashMap<>();
      LongAdder failedWaiters = new LongAdder();
      CountDownLatch asked = new CountDownLatch(count);
      AtomicBoolean stopping = new AtomicBoolean();
      List<Thread> waiters = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        Thread thread =
            threads.newThread(
                () -> {
                  asked.countDown();
                  boolean failed = false;
                  while (!stopping.get()) {
                    try {
                      Permit permit = bulkhead.acquire();
                      grants.incrementAndGet();
                      try {
                        Thread.sleep(HOLD_MILLIS);
                      } finally {
                        permit.close();
                      }
                    } catch (RuntimeException | InterruptedException e) {
                      if (!stopping.get()) {
                        failures.computeIfAbsent(rootCause(e), k -> new LongAdder()).increment();
                        if (!failed) {
                          failed = true;
                          failedWaiters.increment();
                        }
                      }
                    }
                  }
                });
        thread.start();
        waiters.add(thread);
      }
      asked.await(120, TimeUnit.SECONDS);
      // the last ones to ask are queued once their request reached the store: give them a moment
      Thread.sleep(1_000);
      long released = System.nanoTime();
      first.close();
      // the warm-up starts at the first hand-over: enqueueing thousands of requests takes a while
      long firstWait = System.nanoTime() + FIRST_GRANT_NANOS;
      while (grants.get() == 0 && System.nanoTime() < firstWait) {
        Thread.sleep(10);
      }
      double firstGrantSeconds =
          grants.get() == 0 ? Double.NaN : (System.nanoTime() - released) / 1e9;
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(WARM_UP_NANOS));
      long[] before = counters();
      long grantsBefore = grants.get();
      long from = System.nanoTime();
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(MEASURE_NANOS));
      long[] after = counters();
      long grantsAfter = grants.get();
      double seconds = (System.nanoTime() - from) / 1e9;
      double load = MachineLoad.oneMinute();
      Map<String, Long> scripts = byScript();
      double monitorSeconds = MONITOR_NANOS / 1e9;
      long polls =
          scripts.entrySet().stream()
              .filter(e -> e.getKey().contains("poll"))
              .mapToLong(Map.Entry::getValue)
              .sum();
      stopping.set(true);
      for (Thread thread : waiters) {
        thread.interrupt();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      long stuck = 0;
      for (Thread thread : waiters) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left > 0) {
          thread.join(left);
        }
        if (thread.isAlive()) {
          stuck++;
        }
      }
      return new Result(
          failures.values().stream().mapToLong(LongAdder::sum).sum(),
          failedWaiters.sum(),
          failures.entrySet().stream()
              .map(e -> e.getValue().sum() + "x " + e.getKey())
              .collect(Collectors.joining("; ")),
          firstGrantSeconds,
          (grantsAfter - grantsBefore) / seconds,
          (after[0] - before[0]) / seconds,
          (after[1] - before[1]) / seconds,
          scripts.isEmpty() ? Double.NaN : polls / monitorSeconds,
          scripts.entrySet().stream()
              .map(e -> e.getKey() + " " + Math.round(e.getValue() / monitorSeconds))
              .collect(Collectors.joining(", ")),
          stuck,
          load);
    }
  }

  /** On the Redis store, through the programmatic API, with its default pool. */
  static final class RedisRun extends Run {
    private final String name;
    private final BulwarkOnRedis bulwark;
    private final Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port());

    RedisRun(String name) {
      this.name = name;
      Map<String, String> config = new HashMap<>();
      config.put("bulwark.redis.key-prefix", PREFIX);
      config.put("bulwark.bulkhead." + name + ".value", Integer.toString(PERMITS));
      config.put("bulwark.bulkhead." + name + ".waiting-time", WAITING_TIME);
      bulwark = new BulwarkOnRedis(config);
    }

    @Override
    BulkheadHandle bulkhead() {
      return bulwark.bulkhead(name);
    }

    @Override
    long[] counters() {
      RedisStats stats = RedisStats.read(redis);
      long commands = 0;
      for (long[] command : stats.commands().values()) {
        commands += command[0];
      }
      long scripts = stats.commands().getOrDefault("evalsha", new long[2])[0];
      scripts += stats.commands().getOrDefault("eval", new long[2])[0];
      return new long[] {commands, scripts};
    }

    @Override
    Map<String, Long> byScript() throws Exception {
      Map<String, String> names = StoreScripts.byHash();
      Map<String, Long> calls = new TreeMap<>();
      try (MonitorTap tap = new MonitorTap()) {
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(MONITOR_NANOS));
        for (MonitorTap.Command c : tap.drain()) {
          if (c.fromClient() && (c.name().equals("evalsha") || c.name().equals("eval"))) {
            String sha = c.line().split("\"")[3];
            String script =
                c.name().equals("eval")
                    ? "eval"
                    : names.getOrDefault(sha, "sha " + sha.substring(0, Math.min(8, sha.length())));
            calls.merge(script, 1L, Long::sum);
            if (script.equals("permit_batch")) {
              // a batched poll is an operation inside the batch's one script call
              calls.merge(
                  "polls in permit_batch", (long) BatchedOperations.count(c, "P"), Long::sum);
            }
          }
        }
      }
      return calls;
    }

    @Override
    public void close() {
      bulwark.close();
      KeySweep.delete(redis, PREFIX + "*");
      redis.close();
    }
  }

  /** On the JPA store (PostgreSQL), through the programmatic API. */
  static final class JpaRun extends Run {
    private final String name;
    private final BulwarkOnJpa bulwark;
    private final Connection database;

    JpaRun(String name) throws SQLException {
      this.name = name;
      Map<String, String> config = new HashMap<>();
      config.put("bulwark.bulkhead." + name + ".value", Integer.toString(PERMITS));
      config.put("bulwark.bulkhead." + name + ".waiting-time", WAITING_TIME);
      bulwark = new BulwarkOnJpa(config, List.of());
      database =
          DriverManager.getConnection(
              PostgresTarget.URL, PostgresTarget.USER, PostgresTarget.PASSWORD);
    }

    @Override
    BulkheadHandle bulkhead() {
      return bulwark.bulkhead(name);
    }

    @Override
    long[] counters() throws SQLException {
      try (Statement statement = database.createStatement();
          ResultSet row =
              statement.executeQuery(
                  "SELECT xact_commit + xact_rollback FROM pg_stat_database"
                      + " WHERE datname = current_database()")) {
        row.next();
        return new long[] {row.getLong(1), 0};
      }
    }

    @Override
    Map<String, Long> byScript() {
      return Map.of();
    }

    @Override
    public void close() throws SQLException {
      bulwark.close();
      database.close();
    }
  }

  /** The innermost cause's class and message: what made an acquire fail. */
  static String rootCause(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    // numbers vary from one failure to the next (durations, pool counts): group by the rest
    String message =
        String.valueOf(root.getMessage())
            .replaceAll("PT-?[0-9.]+S", "PT<d>S")
            .replaceAll("\\d+", "<n>");
    return root.getClass().getSimpleName() + ": " + message;
  }
}
