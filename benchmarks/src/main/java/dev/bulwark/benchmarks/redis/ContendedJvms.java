package dev.bulwark.benchmarks.redis;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.LockHandle;
import dev.bulwark.LockMode;
import dev.bulwark.Permit;
import dev.bulwark.benchmarks.HeldTurns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.Jedis;

/**
 * Four JVMs, eight threads each, on one bulkhead of 4 and then on one write-locked key: each thread
 * acquires, holds 1 ms and releases, again and again. Every grant is recorded by its JVM (the
 * host's one {@link System#nanoTime()} clock) and the parent checks the merged history: never more
 * holders at once than the limit allows. {@code MONITOR} during the measured window counts the
 * commands each JVM sent (a batch script names its JVM's instance id among its arguments, a renewal
 * its requests), divided by that JVM's calls (one call: an acquire and its release). Also per JVM:
 * its share of the grants and its p50 / p99 wait, for fairness across the JVMs.
 *
 * <p>Arguments: {@code rounds=N} (default 3), {@code seconds=S} measured per round (default 5).
 */
public final class ContendedJvms {

  static final int JVMS = 4;
  static final int THREADS = 8;
  static final int PERMITS = 4;
  static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(2);
  static final String BULKHEAD = "bench-contended";
  static final String KEY = "contended";

  private ContendedJvms() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child();
      return;
    }
    int rounds = 3;
    long measureNanos = TimeUnit.SECONDS.toNanos(5);
    for (String arg : args) {
      String value = arg.substring(arg.indexOf('=') + 1);
      if (arg.startsWith("rounds=")) {
        rounds = Integer.parseInt(value);
      } else if (arg.startsWith("seconds=")) {
        measureNanos = TimeUnit.SECONDS.toNanos(Integer.parseInt(value));
      } else {
        throw new IllegalArgumentException("unknown argument " + arg);
      }
    }
    List<ChildJvm> children = new ArrayList<>();
    try {
      List<String> instances = new ArrayList<>();
      for (int j = 0; j < JVMS; j++) {
        ChildJvm child = new ChildJvm(ContendedJvms.class, List.of("-Xmx512m"));
        children.add(child);
        // one at a time: the only holder a child then sees is its own
        child.send("instance");
        instances.add(child.expect("instance ").substring("instance ".length()));
      }
      System.out.printf(
          "%-9s %5s %9s %10s %s%n",
          "primitive", "round", "overshoot", "calls/s", "per JVM: commands per call, share, wait");
      for (int round = 1; round <= rounds; round++) {
        for (String primitive : List.of("bulkhead", "lock")) {
          measure(children, instances, primitive, round, measureNanos);
        }
      }
    } finally {
      children.forEach(ChildJvm::close);
      try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
        KeySweep.delete(redis, "bench:bulwark:*" + BULKHEAD + "*");
        KeySweep.delete(redis, "bench:bulwark:*" + BulwarkOnRedis.LOCK + "*");
      }
    }
  }

  private static void measure(
      List<ChildJvm> children,
      List<String> instances,
      String primitive,
      int round,
      long measureNanos)
      throws Exception {
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
    long from = start + WARM_UP_NANOS;
    long until = from + measureNanos;
    for (ChildJvm child : children) {
      child.send(primitive + " " + start + " " + from + " " + until);
    }
    LockSupport.parkNanos(from - System.nanoTime());
    List<MonitorTap.Command> sent;
    try (MonitorTap tap = new MonitorTap()) {
      LockSupport.parkNanos(until - System.nanoTime());
      sent = tap.drain();
    }
    List<long[]> grants = new ArrayList<>();
    List<List<long[]>> byJvm = new ArrayList<>();
    for (ChildJvm child : children) {
      Path file = Path.of(child.expect("done ").substring("done ".length()));
      List<long[]> mine = read(file);
      Files.deleteIfExists(file);
      byJvm.add(mine);
      grants.addAll(mine);
    }
    long allCalls = grants.stream().filter(g -> g[1] >= from && g[1] < until).count();
    StringBuilder perJvm = new StringBuilder();
    for (int j = 0; j < children.size(); j++) {
      String instance = instances.get(j);
      long[] waits =
          byJvm.get(j).stream()
              .filter(g -> g[1] >= from && g[1] < until)
              .mapToLong(g -> g[1] - g[0])
              .sorted()
              .toArray();
      long commands =
          sent.stream()
              .filter(MonitorTap.Command::fromClient)
              .filter(c -> c.line().contains(instance))
              .count();
      perJvm.append(
          String.format(
              "  %.2f %4.1f%% %.2f/%.2f ms",
              waits.length == 0 ? Double.NaN : (double) commands / waits.length,
              100.0 * waits.length / Math.max(1, allCalls),
              Percentiles.millis(waits, 50),
              Percentiles.millis(waits, 99)));
    }
    int limit = primitive.equals("bulkhead") ? PERMITS : 1;
    System.out.printf(
        "%-9s %5d %9d %10.0f%s%n",
        primitive,
        round,
        Math.max(0, mostAtOnce(grants) - limit),
        allCalls / (measureNanos / 1e9),
        perJvm);
  }

  /** The most grants held at once, from [granted, released) intervals of every JVM. */
  static int mostAtOnce(List<long[]> grants) {
    long[][] events = new long[grants.size() * 2][];
    int i = 0;
    for (long[] grant : grants) {
      events[i++] = new long[] {grant[1], 1};
      events[i++] = new long[] {grant[2], -1};
    }
    // at one instant a release goes before a grant: the intervals are half-open
    Arrays.sort(
        events, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int held = 0;
    int most = 0;
    for (long[] event : events) {
      held += (int) event[1];
      most = Math.max(most, held);
    }
    return most;
  }

  private static List<long[]> read(Path file) throws IOException {
    List<long[]> grants = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      String[] p = line.split(" ");
      grants.add(new long[] {Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2])});
    }
    return grants;
  }

  private static void child() throws Exception {
    ChildJvm.Parent parent = new ChildJvm.Parent();
    try (BulwarkOnRedis bulwark =
        new BulwarkOnRedis(
            Map.of(
                "bulwark.bulkhead." + BULKHEAD + ".value", Integer.toString(PERMITS),
                "bulwark.bulkhead." + BULKHEAD + ".waiting-time", "60s",
                "bulwark.lock." + BulwarkOnRedis.LOCK + ".waiting-time", "60s"))) {
      BulkheadHandle bulkhead = bulwark.bulkhead(BULKHEAD);
      LockHandle lock = bulwark.lockHandle();
      for (String command = parent.receive(); command != null; command = parent.receive()) {
        String[] p = command.split(" ");
        if (p[0].equals("instance")) {
          try (Permit permit = bulkhead.acquire()) {
            String instance = bulkhead.inspect().holders().get(0).instance();
            parent.send("instance " + instance);
          }
          continue;
        }
        long start = Long.parseLong(p[1]);
        long until = Long.parseLong(p[3]);
        HeldTurns.Take take =
            p[0].equals("bulkhead") ? bulkhead::acquire : () -> lock.lock(KEY, LockMode.WRITE);
        Path file = run(take, start, until);
        parent.send("done " + file);
      }
    }
  }

  /** The threads' grants as lines: asked, granted, released. */
  private static Path run(HeldTurns.Take take, long start, long until) throws Exception {
    List<List<HeldTurns.Turn>> recorded = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      List<HeldTurns.Turn> mine = new ArrayList<>();
      recorded.add(mine);
      Thread thread =
          new Thread(
              () -> {
                try {
                  mine.addAll(HeldTurns.run(take, HOLD_NANOS, start, until));
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    Path file = Files.createTempFile("bulwark-contended-", ".txt");
    List<String> lines = new ArrayList<>();
    for (List<HeldTurns.Turn> mine : recorded) {
      for (HeldTurns.Turn turn : mine) {
        lines.add(turn.asked() + " " + turn.granted() + " " + turn.released());
      }
    }
    Files.write(file, lines);
    return file;
  }
}
