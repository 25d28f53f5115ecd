package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.support.RedisServerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

/**
 * Issue 3, scenario 7: the store's Redis (a server of the test's own) stops mid-run and starts
 * again, empty, on the same port. Three groups of two JVMs run through the same outage, one per
 * failure policy: {@code fail-closed} must throw {@code StoreUnavailableException} while Redis is
 * down, {@code fail-open} must let every call through, {@code local} must enforce the limit per
 * JVM; afterwards all three must be back on Redis — the cluster-wide limit holds again and their
 * keys appear in the restarted server — without restarting a JVM.
 */
class StoreOutageTest {

  private static final int VALUE = 2;
  private static final int WORKERS_PER_POLICY = 2;
  private static final int THREADS = 4;
  private static final Duration RUN = Duration.ofMillis(11_000);
  private static final Duration DOWN_AT = Duration.ofMillis(3_000);
  private static final Duration UP_AT = Duration.ofMillis(6_500);

  /** Calls already on their way when Redis went down may still have reached it. */
  private static final Duration SETTLE_AFTER_DOWN = Duration.ofMillis(500);

  /** The store probes once per reconnect interval (1 s): give it that and a margin. */
  private static final Duration RECOVERY = Duration.ofMillis(2_000);

  private static final List<String> POLICIES = List.of("fail-closed", "fail-open", "local");

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void eachFailurePolicyDoesWhatItSaysWhileRedisIsDownAndTheStoreResumesAfterwards() {
    Path serverDir = Path.of(System.getProperty("basedir", "."), "target", "outage-redis");
    Map<String, ClusterRun> runs = new LinkedHashMap<>();
    try (RedisServerProcess server = RedisServerProcess.start(serverDir)) {
      try {
        for (String policy : POLICIES) {
          ClusterRun run =
              new ClusterRun("outage-" + policy)
                  .storeUrl(server.url())
                  .config("bulwark.failure-policy", policy);
          runs.put(policy, run);
          Map<String, String> limits =
              Map.of(
                  "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value",
                  String.valueOf(VALUE),
                  "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
                  "100ms",
                  "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".lease",
                  "5s");
          run.workers(
              WORKERS_PER_POLICY,
              limits,
              WorkerOptions.args(
                  "scenario",
                  "bulkhead",
                  "threads",
                  THREADS,
                  "duration",
                  RUN.toMillis(),
                  "hold-min",
                  20,
                  "hold-max",
                  40,
                  "pause-after-reject",
                  10));
        }
        long start = 0;
        for (ClusterRun run : runs.values()) {
          start = Math.max(start, run.startAll());
        }

        Waiting.untilInstant(start + DOWN_AT.toNanos());
        long goingDown = System.nanoTime();
        server.shutdown();
        long down = System.nanoTime();
        Waiting.untilInstant(start + UP_AT.toNanos());
        long up = System.nanoTime();
        server.startAgain();
        // while the workers still run: each group's keys must show up in the empty server
        Map<String, Boolean> keysAfterRestart = new LinkedHashMap<>();
        long sampleUntil = start + RUN.toNanos() - TimeUnit.MILLISECONDS.toNanos(200);
        try (Jedis jedis = server.connect()) {
          for (String policy : POLICIES) {
            String prefix = runs.get(policy).storePrefix();
            boolean seen = false;
            while (!seen && System.nanoTime() < sampleUntil) {
              seen = !jedis.keys(prefix + "*").isEmpty();
              if (!seen) {
                StartBarrier.sleepMillis(20);
              }
            }
            keysAfterRestart.put(policy, seen);
          }
        }
        for (ClusterRun run : runs.values()) {
          run.awaitAll(Duration.ofSeconds(30));
        }

        for (String policy : POLICIES) {
          check(policy, runs.get(policy), start, goingDown, down, up, keysAfterRestart.get(policy));
        }
      } finally {
        runs.values().forEach(ClusterRun::close);
      }
    }
  }

  /**
   * Judges one policy's records by request time: before {@code goingDown} Redis answered; from a
   * moment after {@code down} (the server had exited) until {@code up} (the new one was launched)
   * nothing could; from {@link #RECOVERY} after {@code up} the store must be back on Redis.
   */
  private static void check(
      String policy,
      ClusterRun run,
      long start,
      long goingDown,
      long down,
      long up,
      boolean keysAfterRestart) {
    Recording recording = run.recording();
    long downFrom = down + SETTLE_AFTER_DOWN.toNanos();
    long downTo = up - TimeUnit.MILLISECONDS.toNanos(100);
    long afterFrom = up + RECOVERY.toNanos();
    long end = start + RUN.toNanos();
    // calls over before Redis went down (a caller queued at that moment may see the outage)
    List<CallRecord> before = recording.calls(c -> c.exitNanos() < goingDown);
    List<CallRecord> during =
        recording.calls(c -> c.requestNanos() > downFrom && c.requestNanos() < downTo);
    List<CallRecord> after = recording.calls(c -> c.requestNanos() > afterFrom);
    Concurrency all = Concurrency.of(recording.calls());
    Map<String, Integer> perJvmDuring = new LinkedHashMap<>();
    for (WorkerProcesses.Worker worker : run.workers()) {
      perJvmDuring.put(
          worker.name(),
          Concurrency.of(recording.calls(c -> c.worker().equals(worker.name())))
              .max(downFrom, downTo));
    }
    run.report(
        String.format(
            "outage %s: before %s max inside %d; while down %s max inside %d (per JVM %s);"
                + " after restart %s max inside %d; store keys in the restarted Redis: %s;"
                + " down %.0f ms after the start, up again %.0f ms after",
            policy,
            outcomes(before),
            all.max(Long.MIN_VALUE, goingDown),
            outcomes(during),
            all.max(downFrom, downTo),
            perJvmDuring,
            outcomes(after),
            all.max(afterFrom, end),
            keysAfterRestart,
            ClusterRun.millis(down - start),
            ClusterRun.millis(up - start)));

    assertThat(before.size()).as(policy + ": calls before the outage").isPositive();
    assertThat(all.max(Long.MIN_VALUE, goingDown))
        .as(policy + ": inside before the outage")
        .isLessThanOrEqualTo(VALUE);
    Violations.all(
        policy + ": no StoreUnavailableException before the outage",
        before,
        c -> !c.rejectedWith("StoreUnavailableException"));
    assertThat(during.size()).as(policy + ": calls while Redis was down").isPositive();
    switch (policy) {
      case "fail-closed" -> {
        Violations.all(
            "fail-closed: every call while down fails with StoreUnavailableException",
            during,
            c -> c.rejectedWith("StoreUnavailableException"));
        assertThat(run.counters().maxInside())
            .as("fail-closed: never more than the limit, live counter")
            .isLessThanOrEqualTo(VALUE);
      }
      case "fail-open" -> {
        Violations.all("fail-open: every call while down passes", during, CallRecord::completed);
        assertThat(all.max(downFrom, downTo))
            .as("fail-open: unguarded while down, so more than the limit inside")
            .isGreaterThan(VALUE);
      }
      default -> {
        Violations.all(
            "local: no call while down sees the outage",
            during,
            c -> !c.rejectedWith("StoreUnavailableException"));
        assertThat(during.stream().filter(CallRecord::completed).count())
            .as("local: calls that ran while down")
            .isPositive();
        perJvmDuring.forEach(
            (worker, max) ->
                assertThat(max)
                    .as("local: inside " + worker + " while down")
                    .isLessThanOrEqualTo(VALUE));
      }
    }
    assertThat(after.stream().filter(CallRecord::completed).count())
        .as(policy + ": calls that ran after the restart")
        .isPositive();
    Violations.all(
        policy + ": no StoreUnavailableException once Redis is back",
        after,
        c -> !c.rejectedWith("StoreUnavailableException"));
    assertThat(all.max(afterFrom, end))
        .as(policy + ": the cluster-wide limit holds again after the restart")
        .isLessThanOrEqualTo(VALUE);
    assertThat(keysAfterRestart).as(policy + ": the store's keys in the restarted Redis").isTrue();
  }

  private static Map<String, Long> outcomes(List<CallRecord> calls) {
    return calls.stream()
        .collect(
            Collectors.groupingBy(CallRecord::outcome, LinkedHashMap::new, Collectors.counting()));
  }
}
