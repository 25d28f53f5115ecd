package dev.bulwark.benchmarks.redis;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * A contended bulkhead: 8 threads, {@code value} 1 or 2, each call holds its permit for {@link
 * #HOLD_NANOS} and every waiter may wait 10 s. Measures the wake-up latency — from just before the
 * releasing thread calls release to just after the woken waiter's acquire returns — and the
 * commands sent per call (a second, shorter phase under MONITOR, which slows Redis down).
 *
 * <p>Pairing a release with the wake-up it caused: the k-th release (in the order releases start)
 * with the (k + value)-th grant (in the order acquires return); the first {@code value} grants
 * needed no release. With {@code value = 1} this is exact, as grants and releases alternate. With
 * {@code value = 2} two hand-overs that overlap may be paired crosswise, which swaps their
 * latencies but keeps their sum. A grant to a thread that asked only after that release (it took
 * the permit before the waiters) is no wake-up; the share of such grants is shown as "barged".
 *
 * <p>Arguments: an optional regular expression that selects variants by name.
 */
public final class WakeUpLatency {

  static final int THREADS = 8;
  static final long WAITING_MILLIS = 10_000;

  /** Sleeps rather than spins: with 2 cores, spinning holders would starve the woken waiter. */
  static final long HOLD_NANOS = 500_000;

  static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(2);
  static final long MEASURE_NANOS = TimeUnit.SECONDS.toNanos(5);
  static final long COUNT_NANOS = TimeUnit.SECONDS.toNanos(2);
  static final int MAX_CALLS = 1 << 20;

  /** A bulkhead under test: acquire waits, what it returns releases. */
  @FunctionalInterface
  interface Gate {
    Runnable acquire() throws Exception;
  }

  /** A library's bulkhead of a given size, opened for one variant and closed after it. */
  interface Contender extends AutoCloseable {
    Gate gate();

    @Override
    void close();
  }

  static Map<String, IntFunction<Contender>> contenders() {
    Map<String, IntFunction<Contender>> contenders = new LinkedHashMap<>();
    contenders.put("bulwarkBulkhead", WakeUpLatency::bulwark);
    contenders.put("redissonPermitExpirableSemaphore", WakeUpLatency::redissonExpirable);
    contenders.put("redissonSemaphore", WakeUpLatency::redissonSemaphore);
    return contenders;
  }

  public static void main(String[] args) throws Exception {
    Pattern selected = Pattern.compile(args.length > 0 ? args[0] : ".*");
    System.out.printf(
        "%-34s %5s %8s %8s %8s %8s %8s %8s %7s %9s  %s%n",
        "bulkhead",
        "value",
        "calls/s",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "wake-ups",
        "barged",
        "cmds/call",
        "per call (under MONITOR)");
    for (Map.Entry<String, IntFunction<Contender>> contender : contenders().entrySet()) {
      for (int value : new int[] {1, 2}) {
        String name = contender.getKey();
        if (!selected.matcher(name + " " + value).find()) {
          continue;
        }
        try (Contender opened = contender.getValue().apply(value)) {
          measure(name, value, opened.gate());
        } catch (Exception | LinkageError e) {
          System.out.printf("%-34s %5d not measured: %s%n", name, value, e);
        }
      }
    }
  }

  private static void measure(String name, int value, Gate gate) throws Exception {
    Recording latency = run(gate, WARM_UP_NANOS + MEASURE_NANOS);
    long[] wakeUps = latency.wakeUps(value, latency.start + WARM_UP_NANOS);
    double callsPerSecond =
        latency.callsAfter(latency.start + WARM_UP_NANOS) / (MEASURE_NANOS / 1e9);
    String counted;
    try (MonitorTap tap = new MonitorTap()) {
      Recording counting = run(gate, COUNT_NANOS);
      counted = commandsPerCall(tap.drain(), counting.grants.get());
    }
    System.out.printf(
        "%-34s %5d %8.0f %8.3f %8.3f %8.3f %8.3f %8d %6.1f%% %s%n",
        name,
        value,
        callsPerSecond,
        percentile(wakeUps, 50),
        percentile(wakeUps, 90),
        percentile(wakeUps, 99),
        wakeUps.length == 0 ? Double.NaN : wakeUps[wakeUps.length - 1] / 1e6,
        wakeUps.length,
        100.0 * latency.barged / (wakeUps.length + latency.barged),
        counted);
  }

  /** When each grant and each release happened, in the order they happened. */
  private static final class Recording {
    final long start = System.nanoTime();
    final long[] askedAt = new long[MAX_CALLS];
    final long[] grantedAt = new long[MAX_CALLS];
    final long[] releasedAt = new long[MAX_CALLS];
    final AtomicInteger grants = new AtomicInteger();
    final AtomicInteger releases = new AtomicInteger();
    final AtomicLong failures = new AtomicLong();

    int barged;

    /**
     * Release-to-grant latencies of the hand-overs to a waiter, sorted. A grant whose acquire
     * started after its release (the releasing thread itself, or a newcomer, taking the permit
     * before a waiter does) is no wake-up: it is counted in {@link #barged} instead.
     */
    long[] wakeUps(int value, long from) {
      int pairs = Math.min(grants.get(), MAX_CALLS) - value;
      List<Long> latencies = new ArrayList<>();
      barged = 0;
      for (int k = 0; k < pairs && k < releases.get(); k++) {
        if (releasedAt[k] < from) {
          continue;
        }
        if (askedAt[k + value] < releasedAt[k]) {
          latencies.add(grantedAt[k + value] - releasedAt[k]);
        } else {
          barged++;
        }
      }
      return latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    long callsAfter(long from) {
      int n = Math.min(grants.get(), MAX_CALLS);
      return Arrays.stream(grantedAt, 0, n).filter(t -> t >= from).count();
    }
  }

  private static Recording run(Gate gate, long nanos) throws InterruptedException {
    Recording recording = new Recording();
    long end = recording.start + nanos;
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread =
          new Thread(
              () -> {
                while (System.nanoTime() < end) {
                  Runnable release;
                  long asked = System.nanoTime();
                  try {
                    release = gate.acquire();
                  } catch (Exception e) {
                    recording.failures.incrementAndGet();
                    continue;
                  }
                  int grant = recording.grants.getAndIncrement();
                  if (grant < MAX_CALLS) {
                    recording.grantedAt[grant] = System.nanoTime();
                    recording.askedAt[grant] = asked;
                  }
                  LockSupport.parkNanos(HOLD_NANOS);
                  int k = recording.releases.getAndIncrement();
                  if (k < MAX_CALLS) {
                    recording.releasedAt[k] = System.nanoTime();
                  }
                  release.run();
                }
              },
              "contender-" + t);
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (recording.failures.get() > 0) {
      throw new IllegalStateException(recording.failures.get() + " acquires failed");
    }
    return recording;
  }

  private static String commandsPerCall(List<MonitorTap.Command> commands, int calls) {
    SentCommands sent = SentCommands.of(commands);
    return String.format(
        "%9.2f  %s (%d calls)", sent.total() / (double) calls, sent.perCall(calls), calls);
  }

  private static double percentile(long[] sorted, int percent) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, index)] / 1e6;
  }

  private static Contender bulwark(int value) {
    String name = "bench-contended-" + value;
    BulwarkOnRedis bulwark =
        new BulwarkOnRedis(
            Map.of(
                "bulwark.bulkhead." + name + ".value",
                Integer.toString(value),
                "bulwark.bulkhead." + name + ".waiting-time",
                WAITING_MILLIS + "ms"));
    BulkheadHandle bulkhead = bulwark.bulkhead(name);
    return new Contender() {
      @Override
      public Gate gate() {
        return () -> {
          Permit permit = bulkhead.acquire();
          return permit::close;
        };
      }

      @Override
      public void close() {
        bulwark.close();
      }
    };
  }

  private static Contender redissonExpirable(int value) {
    RedissonPeer redisson = new RedissonPeer(value);
    return new Contender() {
      @Override
      public Gate gate() {
        return () -> {
          String permit = redisson.acquireExpirable(WAITING_MILLIS);
          if (permit == null) {
            throw new IllegalStateException("no permit within " + WAITING_MILLIS + " ms");
          }
          return () -> redisson.releaseExpirable(permit);
        };
      }

      @Override
      public void close() {
        redisson.close();
      }
    };
  }

  private static Contender redissonSemaphore(int value) {
    RedissonPeer redisson = new RedissonPeer(value);
    return new Contender() {
      @Override
      public Gate gate() {
        return () -> {
          if (!redisson.acquireSemaphore(WAITING_MILLIS)) {
            throw new IllegalStateException("no permit within " + WAITING_MILLIS + " ms");
          }
          return redisson::releaseSemaphore;
        };
      }

      @Override
      public void close() {
        redisson.close();
      }
    };
  }

  private WakeUpLatency() {}
}
