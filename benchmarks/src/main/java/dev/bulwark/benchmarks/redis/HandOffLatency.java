package dev.bulwark.benchmarks.redis;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.benchmarks.HeldTurns;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

/**
 * Hand-off latency on Redis: two callers take one permit in turn — each holds it {@link
 * #HOLD_NANOS}, releases it and asks again at once, so the other caller, queued meanwhile, is woken
 * by the release. Measured from just before the release to just after the other caller's acquire
 * returns ({@link System#nanoTime()}, one clock for every process of a Linux host), in three modes:
 *
 * <ul>
 *   <li>{@code pubsub}: the floor of a cross-JVM hand-off through Redis — the "permit" is a token
 *       that the releasing JVM sends with one {@code EVALSHA} of a script that {@code PUBLISH}es to
 *       the other JVM's channel, whose subscriber thread hands it to the waiting caller;
 *   <li>{@code cross-jvm}: Bulwark's bulkhead of 1 shared by this JVM and a child JVM, a caller
 *       each;
 *   <li>{@code same-jvm}: the same bulkhead with both callers in this JVM.
 * </ul>
 *
 * <p>Pairing: with one permit, grants and releases alternate, so each grant follows the release
 * before it; a grant to the caller that released, or to one that asked only after the release, is
 * no hand-off and counts as "barged". Each mode runs {@code rounds} times (default 3) in turn, and
 * the medians follow. Arguments: {@code rounds=N}, and the modes to run (default all three).
 */
public final class HandOffLatency {

  static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
  static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(2);
  static final long MEASURE_NANOS = TimeUnit.SECONDS.toNanos(6);
  static final String PREFIX = "bench:hand-off:";
  static final String BULKHEAD = "bench-hand-off";
  static final String PUBLISH = "return redis.call('PUBLISH', KEYS[1], ARGV[1])";

  /** A caller's side of the permit: acquire waits, what it returns releases. */
  @FunctionalInterface
  interface Side {
    Runnable acquire() throws InterruptedException;
  }

  private HandOffLatency() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args[1], Path.of(args[2]));
      return;
    }
    int rounds = 3;
    List<String> modes = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("rounds=")) {
        rounds = Integer.parseInt(arg.substring("rounds=".length()));
      } else {
        modes.add(arg);
      }
    }
    if (modes.isEmpty()) {
      modes = List.of("pubsub", "cross-jvm", "same-jvm");
    }
    Map<String, List<double[]>> results = new TreeMap<>();
    System.out.printf(
        "%-10s %5s %8s %8s %8s %8s %8s %7s %5s%n",
        "mode", "round", "p50 ms", "p90 ms", "p99 ms", "max ms", "hand-offs", "barged", "load");
    try {
      for (int round = 1; round <= rounds; round++) {
        for (String mode : modes) {
          double[] figures = measure(mode);
          results.computeIfAbsent(mode, m -> new ArrayList<>()).add(figures);
          print(mode, Integer.toString(round), figures);
        }
      }
      System.out.println();
      System.out.println("medians over " + rounds + " rounds:");
      for (Map.Entry<String, List<double[]>> mode : results.entrySet()) {
        double[] median = new double[7];
        for (int f = 0; f < median.length; f++) {
          int figure = f;
          median[f] = medianOfNumbers(mode.getValue().stream().mapToDouble(r -> r[figure]));
        }
        print(mode.getKey(), "med", median);
      }
      if (results.containsKey("pubsub")) {
        double floor = median(results.get("pubsub"));
        for (String mode : List.of("cross-jvm", "same-jvm")) {
          if (results.containsKey(mode)) {
            System.out.printf(
                "%s p50 / pubsub p50: %.2f%n", mode, median(results.get(mode)) / floor);
          }
        }
      }
    } finally {
      try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
        KeySweep.delete(redis, PREFIX + "*");
      }
    }
  }

  private static double median(List<double[]> rounds) {
    return medianOfNumbers(rounds.stream().mapToDouble(r -> r[0]));
  }

  /** The median of the figures that are numbers (a round with no hand-off has no p50). */
  private static double medianOfNumbers(java.util.stream.DoubleStream figures) {
    double[] numbers = figures.filter(f -> !Double.isNaN(f)).toArray();
    return numbers.length == 0 ? Double.NaN : Percentiles.median(numbers);
  }

  private static void print(String mode, String round, double[] f) {
    System.out.printf(
        "%-10s %5s %8.3f %8.3f %8.3f %8.3f %8.0f %6.1f%% %5.1f%n",
        mode, round, f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
  }

  /** One run of a mode: p50, p90, p99, max (ms), hand-offs, barged %, load. */
  private static double[] measure(String mode) throws Exception {
    List<Call> calls = new ArrayList<>();
    if (mode.equals("same-jvm")) {
      long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
      long end = start + WARM_UP_NANOS + MEASURE_NANOS;
      try (BulwarkOnRedis bulwark = bulwark()) {
        BulkheadHandle bulkhead = bulwark.bulkhead(BULKHEAD);
        bulkhead.acquire().close(); // connects and loads the scripts before the clock starts
        List<Call> other = new ArrayList<>();
        Thread second = new Thread(() -> other.addAll(take(bulwark(bulkhead), "b", start, end)));
        second.start();
        calls.addAll(take(bulwark(bulkhead), "a", start, end));
        second.join();
        calls.addAll(other);
      }
      return report(calls, start + WARM_UP_NANOS);
    }
    Path childRecords = Files.createTempFile("bulwark-hand-off-", ".txt");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                HandOffLatency.class.getName(),
                "child",
                mode,
                childRecords.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try (AutoCloseable side = open(mode, "parent");
        BufferedReader fromChild =
            new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        PrintStream toChild = new PrintStream(child.getOutputStream(), true, "UTF-8")) {
      String ready = fromChild.readLine();
      if (!"ready".equals(ready)) {
        throw new IllegalStateException("child did not start: " + ready);
      }
      // the clock starts once both sides are ready: a JVM starts slowly on a loaded machine
      long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
      long end = start + WARM_UP_NANOS + MEASURE_NANOS;
      toChild.println(start + " " + end);
      calls.addAll(take((Side) side, "parent", start, end));
      if (!child.waitFor(60, TimeUnit.SECONDS) || child.exitValue() != 0) {
        throw new IllegalStateException("child failed");
      }
      for (String line : Files.readAllLines(childRecords)) {
        String[] p = line.split(" ");
        calls.add(
            new Call("child", Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2])));
      }
      return report(calls, start + WARM_UP_NANOS);
    } finally {
      child.destroyForcibly();
      Files.deleteIfExists(childRecords);
    }
  }

  private static void child(String mode, Path records) throws Exception {
    try (AutoCloseable side = open(mode, "child");
        BufferedReader fromParent =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      System.out.println("ready");
      System.out.flush();
      String[] window = fromParent.readLine().split(" ");
      List<Call> calls =
          take((Side) side, "child", Long.parseLong(window[0]), Long.parseLong(window[1]));
      List<String> lines = new ArrayList<>();
      calls.forEach(c -> lines.add(c.asked + " " + c.granted + " " + c.released));
      Files.write(records, lines);
    }
    System.exit(0);
  }

  private static BulwarkOnRedis bulwark() {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.key-prefix", PREFIX);
    config.put("bulwark.bulkhead." + BULKHEAD + ".value", "1");
    config.put("bulwark.bulkhead." + BULKHEAD + ".waiting-time", "10s");
    return new BulwarkOnRedis(config);
  }

  private static Side bulwark(BulkheadHandle bulkhead) {
    return () -> {
      Permit permit = bulkhead.acquire();
      return permit::close;
    };
  }

  /** This JVM's side in a cross-JVM mode, ready to take part once returned. */
  private static AutoCloseable open(String mode, String jvm) throws Exception {
    if (mode.equals("pubsub")) {
      return new PubSubSide(jvm);
    }
    if (!mode.equals("cross-jvm")) {
      throw new IllegalArgumentException("unknown mode " + mode);
    }
    BulwarkOnRedis bulwark = bulwark();
    BulkheadHandle bulkhead = bulwark.bulkhead(BULKHEAD);
    bulkhead.acquire().close(); // connects and loads the scripts before the clock starts
    Side side = bulwark(bulkhead);
    return new ClosableSide() {
      @Override
      public Runnable acquire() throws InterruptedException {
        return side.acquire();
      }

      @Override
      public void close() {
        bulwark.close();
      }
    };
  }

  interface ClosableSide extends Side, AutoCloseable {}

  /**
   * The floor: a token passed between two JVMs through Redis pub/sub. This JVM's subscriber thread
   * puts what arrives on its channel in a queue its caller takes from; a release is one {@code
   * EVALSHA} that publishes to the other JVM's channel. The parent holds the token first.
   */
  private static final class PubSubSide implements ClosableSide {
    private final BlockingQueue<String> tokens = new LinkedBlockingQueue<>();
    private final Jedis subscriber = new Jedis(RedisTarget.host(), RedisTarget.port());
    private final Jedis publisher = new Jedis(RedisTarget.host(), RedisTarget.port());
    private final String sha = publisher.scriptLoad(PUBLISH);
    private final String other;
    private final JedisPubSub listener;
    private final Thread listening;

    PubSubSide(String jvm) throws InterruptedException {
      String own = PREFIX + "channel-" + jvm;
      other = PREFIX + "channel-" + (jvm.equals("parent") ? "child" : "parent");
      CountDownLatch subscribed = new CountDownLatch(1);
      listener =
          new JedisPubSub() {
            @Override
            public void onMessage(String channel, String message) {
              tokens.add(message);
            }

            @Override
            public void onSubscribe(String channel, int count) {
              subscribed.countDown();
            }
          };
      listening = new Thread(() -> subscriber.subscribe(listener, own), "subscriber");
      listening.setDaemon(true);
      listening.start();
      if (!subscribed.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("no subscription to " + own);
      }
      if (jvm.equals("parent")) {
        tokens.add("token");
      }
    }

    @Override
    public Runnable acquire() throws InterruptedException {
      tokens.take();
      return () -> publisher.evalsha(sha, 1, other, "token");
    }

    @Override
    public void close() throws InterruptedException {
      listener.unsubscribe();
      listening.join(5_000);
      subscriber.close();
      publisher.close();
    }
  }

  /** One caller: takes the permit, holds it, releases it and asks again until {@code end}. */
  private static List<Call> take(Side side, String who, long start, long end) {
    List<HeldTurns.Turn> turns;
    try {
      turns =
          HeldTurns.run(
              () -> {
                Runnable release = side.acquire();
                return release::run;
              },
              HOLD_NANOS,
              start,
              end);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    List<Call> calls = new ArrayList<>();
    turns.forEach(t -> calls.add(new Call(who, t.asked(), t.granted(), t.released())));
    return calls;
  }

  private static double[] report(List<Call> calls, long from) {
    calls.sort(Comparator.comparingLong(Call::granted));
    List<Long> handOffs = new ArrayList<>();
    int barged = 0;
    int measured = 0;
    for (int n = 1; n < calls.size(); n++) {
      Call previous = calls.get(n - 1);
      Call call = calls.get(n);
      if (previous.released < from) {
        continue;
      }
      measured++;
      if (call.asked > previous.released || call.who.equals(previous.who)) {
        barged++;
      } else {
        handOffs.add(call.granted - previous.released);
      }
    }
    long[] sorted = handOffs.stream().mapToLong(Long::longValue).sorted().toArray();
    return new double[] {
      Percentiles.millis(sorted, 50),
      Percentiles.millis(sorted, 90),
      Percentiles.millis(sorted, 99),
      Percentiles.millis(sorted, 100),
      sorted.length,
      100.0 * barged / Math.max(1, measured),
      MachineLoad.oneMinute()
    };
  }

  private record Call(String who, long asked, long granted, long released) {}
}
