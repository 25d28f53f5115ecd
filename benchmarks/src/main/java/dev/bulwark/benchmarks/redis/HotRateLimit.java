package dev.bulwark.benchmarks.redis;

import dev.bulwark.RateLimiterHandle;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;

/**
 * One hot rate limit driven by {@link #CHILDREN} child JVMs as fast as their callers can go, with
 * 8, 64 and 400 callers in all (threads, spread evenly over the JVMs): does the cost per grant stay
 * the same as callers are added, or do retries pile up? The limit is so high (10⁹ a second) that
 * every call is granted, so every caller contends on the one key all the time.
 *
 * <p>Per caller count, over {@link #MEASURE_NANOS} after {@link #WARM_UP_NANOS}: grants per second;
 * the latency of each call (p50, p99, max, taken by each caller around its call); Redis's own
 * figures ({@code INFO commandstats} and {@code cpu}: script calls and server CPU per grant); then,
 * for {@link #MONITOR_NANOS} under MONITOR, the commands the JVMs sent on the wire per grant.
 * Bulwark's rate script decides in one call, granted or not; Bucket4j's compare-and-swap proxy
 * ({@link Bucket4jPeer}) reads, then writes only if nobody wrote in between, and starts again
 * otherwise — the variant shows what that costs on the same key and machine.
 *
 * <p>Arguments: an optional regular expression on {@code "<variant> <callers>"}, then {@code
 * rounds=N} (default 3).
 */
public final class HotRateLimit {

  static final int CHILDREN = 8;
  static final int[] CALLERS = {8, 64, 400};
  static final String PREFIX = "bench:scale-rate:";
  static final String LIMIT = "bench-hot";
  static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(3);
  static final long MEASURE_NANOS = TimeUnit.SECONDS.toNanos(8);
  static final long MONITOR_NANOS = TimeUnit.SECONDS.toNanos(2);

  private HotRateLimit() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child();
      return;
    }
    Pattern selected = Pattern.compile(".*");
    int rounds = 3;
    for (String arg : args) {
      if (arg.startsWith("rounds=")) {
        rounds = Integer.parseInt(arg.substring("rounds=".length()));
      } else {
        selected = Pattern.compile(arg);
      }
    }
    List<ChildJvm> children = new ArrayList<>();
    Map<String, List<Result>> results = new TreeMap<>();
    try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
      for (int c = 0; c < CHILDREN; c++) {
        children.add(new ChildJvm(HotRateLimit.class, List.of("-Xmx256m", "-XX:+UseSerialGC")));
      }
      for (ChildJvm child : children) {
        child.expect("ready");
      }
      Result.printHeader();
      for (int round = 1; round <= rounds; round++) {
        for (String variant : List.of("bulwark", "bucket4j")) {
          for (int callers : CALLERS) {
            if (!selected.matcher(variant + " " + callers).find()) {
              continue;
            }
            Result result = run(redis, children, variant, callers, round);
            result.print();
            results
                .computeIfAbsent(variant + String.format(" %04d", callers), k -> new ArrayList<>())
                .add(result);
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
      for (ChildJvm child : children) {
        child.close();
      }
      try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
        long deleted = KeySweep.delete(redis, PREFIX + "*") + redis.del(Bucket4jPeer.KEY);
        System.out.println("deleted " + deleted + " keys");
      }
    }
  }

  private static Result run(
      Jedis redis, List<ChildJvm> children, String variant, int callers, int round)
      throws Exception {
    for (int c = 0; c < CHILDREN; c++) {
      int share = callers / CHILDREN + (c < callers % CHILDREN ? 1 : 0);
      children.get(c).send("open " + variant + " " + share);
    }
    for (ChildJvm child : children) {
      child.expect("opened");
    }
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
    long from = start + WARM_UP_NANOS;
    long to = from + MEASURE_NANOS;
    long monitorFrom = to + TimeUnit.MILLISECONDS.toNanos(300);
    long monitorTo = monitorFrom + MONITOR_NANOS;
    long end = monitorTo + TimeUnit.MILLISECONDS.toNanos(300);
    for (ChildJvm child : children) {
      child.send(
          "go " + start + " " + from + " " + to + " " + monitorFrom + " " + monitorTo + " " + end);
    }
    sleepUntil(from);
    RedisStats before = RedisStats.read(redis);
    sleepUntil(to);
    RedisStats after = RedisStats.read(redis);
    double load = MachineLoad.oneMinute();
    List<MonitorTap.Command> monitored;
    sleepUntil(monitorFrom);
    try (MonitorTap tap = new MonitorTap()) {
      sleepUntil(monitorTo);
      monitored = tap.drain();
    }
    long calls = 0;
    long grants = 0;
    long monitoredCalls = 0;
    List<long[]> latencies = new ArrayList<>();
    for (ChildJvm child : children) {
      String[] done = child.expect("done").split(" ");
      calls += Long.parseLong(done[1]);
      grants += Long.parseLong(done[2]);
      monitoredCalls += Long.parseLong(done[3]);
      Path file = Path.of(done[4]);
      ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
      long[] values = new long[bytes.remaining() / Long.BYTES];
      bytes.asLongBuffer().get(values);
      latencies.add(values);
      Files.delete(file);
    }
    long[] sorted = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    SentCommands sent = SentCommands.of(monitored);
    double seconds = MEASURE_NANOS / 1e9;
    long scripts = after.calls(before, "evalsha") + after.calls(before, "eval");
    return new Result(
        variant,
        callers,
        round,
        grants / seconds,
        calls == 0 ? Double.NaN : grants / (double) calls,
        Percentiles.millis(sorted, 50),
        Percentiles.millis(sorted, 99),
        Percentiles.millis(sorted, 100),
        sent.total() / (double) monitoredCalls,
        sent.perCall((int) monitoredCalls),
        scripts / (double) grants,
        (after.cpuMicros() - before.cpuMicros()) / (double) grants,
        sent.others(),
        load);
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  /** One run: a variant at a caller count. */
  private record Result(
      String variant,
      int callers,
      int round,
      double grantsPerSecond,
      double grantedShare,
      double p50,
      double p99,
      double max,
      double commandsPerGrant,
      String sentPerGrant,
      double scriptsPerGrant,
      double cpuMicrosPerGrant,
      long others,
      double load) {

    static void printHeader() {
      System.out.printf(
          "%-9s %7s %5s %9s %7s %8s %8s %9s %9s %9s %10s %6s %5s  %s%n",
          "variant",
          "callers",
          "round",
          "grants/s",
          "granted",
          "p50 ms",
          "p99 ms",
          "max ms",
          "cmds/grnt",
          "scr/grant",
          "cpu us/grt",
          "others",
          "load",
          "sent per grant (under MONITOR)");
    }

    void print() {
      System.out.printf(
          "%-9s %7d %5s %9.0f %6.1f%% %8.3f %8.3f %9.3f %9.2f %9.2f %10.1f %6d %5.1f  %s%n",
          variant,
          callers,
          round == 0 ? "med" : Integer.toString(round),
          grantsPerSecond,
          100 * grantedShare,
          p50,
          p99,
          max,
          commandsPerGrant,
          scriptsPerGrant,
          cpuMicrosPerGrant,
          others,
          load,
          sentPerGrant);
    }

    static Result median(List<Result> rounds) {
      Result any = rounds.get(0);
      return new Result(
          any.variant,
          any.callers,
          0,
          median(rounds, Result::grantsPerSecond),
          median(rounds, Result::grantedShare),
          median(rounds, Result::p50),
          median(rounds, Result::p99),
          median(rounds, Result::max),
          median(rounds, Result::commandsPerGrant),
          "",
          median(rounds, Result::scriptsPerGrant),
          median(rounds, Result::cpuMicrosPerGrant),
          (long) median(rounds, Result::others),
          median(rounds, Result::load));
    }

    private static double median(List<Result> rounds, ToDoubleFunction<Result> figure) {
      return Percentiles.median(rounds.stream().mapToDouble(figure).toArray());
    }
  }

  // ---- the child JVM: its share of the callers ----

  private static void child() throws Exception {
    ChildJvm.Parent parent = new ChildJvm.Parent();
    parent.send("ready");
    for (String command = parent.receive(); command != null; command = parent.receive()) {
      String[] open = command.split(" ");
      if (!open[0].equals("open")) {
        throw new IllegalStateException("expected open, got " + command);
      }
      String variant = open[1];
      int threads = Integer.parseInt(open[2]);
      AutoCloseable library;
      BooleanSupplier call;
      if (variant.equals("bulwark")) {
        BulwarkOnRedis bulwark =
            new BulwarkOnRedis(
                Map.of(
                    "bulwark.redis.key-prefix",
                    PREFIX,
                    "bulwark.rate-limit." + LIMIT + ".value",
                    "1000000000",
                    "bulwark.rate-limit." + LIMIT + ".window",
                    "1s"));
        RateLimiterHandle limit = bulwark.rateLimiter(LIMIT);
        library = bulwark;
        call = limit::tryAcquire;
      } else {
        Bucket4jPeer bucket4j = new Bucket4jPeer();
        library = bucket4j;
        call = bucket4j::tryConsume;
      }
      try {
        call.getAsBoolean(); // opens connections and loads scripts before the clock starts
        parent.send("opened");
        String[] go = parent.receive().split(" ");
        long[] window = new long[go.length - 1];
        for (int i = 0; i < window.length; i++) {
          window[i] = Long.parseLong(go[i + 1]);
        }
        parent.send(callers(threads, call, window));
      } finally {
        library.close();
      }
    }
    System.exit(0);
  }

  /**
   * Runs the callers through the window; answers {@code done <calls> <grants> <monitored> <file>}.
   */
  private static String callers(int threads, BooleanSupplier call, long[] window) throws Exception {
    long start = window[0];
    long from = window[1];
    long to = window[2];
    long monitorFrom = window[3];
    long monitorTo = window[4];
    long end = window[5];
    AtomicLong calls = new AtomicLong();
    AtomicLong grants = new AtomicLong();
    AtomicLong monitored = new AtomicLong();
    List<long[]> latencies = new ArrayList<>();
    List<Thread> running = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long[][] own = {new long[1 << 12]};
      int[] count = {0};
      Thread thread =
          new Thread(
              () -> {
                while (System.nanoTime() < start) {
                  Thread.onSpinWait();
                }
                for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
                  boolean granted = call.getAsBoolean();
                  long done = System.nanoTime();
                  if (now >= from && done <= to) {
                    calls.incrementAndGet();
                    if (granted) {
                      grants.incrementAndGet();
                    }
                    if (count[0] == own[0].length) {
                      own[0] = Arrays.copyOf(own[0], own[0].length * 2);
                    }
                    own[0][count[0]++] = done - now;
                  } else if (done >= monitorFrom && done <= monitorTo) {
                    monitored.incrementAndGet();
                  }
                }
                synchronized (latencies) {
                  latencies.add(Arrays.copyOf(own[0], count[0]));
                }
              },
              "caller-" + t);
      thread.start();
      running.add(thread);
    }
    for (Thread thread : running) {
      thread.join();
    }
    int total = latencies.stream().mapToInt(l -> l.length).sum();
    ByteBuffer bytes = ByteBuffer.allocate(total * Long.BYTES);
    for (long[] own : latencies) {
      for (long latency : own) {
        bytes.putLong(latency);
      }
    }
    Path file = Files.createTempFile("bulwark-hot-rate-", ".bin");
    Files.write(file, bytes.array());
    return "done " + calls + " " + grants + " " + monitored + " " + file;
  }
}
