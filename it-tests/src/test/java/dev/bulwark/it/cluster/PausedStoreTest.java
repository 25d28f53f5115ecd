package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.RedisUnderTest;
import dev.bulwark.it.cluster.harness.Stores;
import dev.bulwark.it.cluster.harness.Waiting;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.CapacityRule;
import dev.bulwark.it.cluster.history.Millis;
import dev.bulwark.it.cluster.history.Violations;
import dev.bulwark.it.support.RedisServerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store stands still instead of going away: a Redis of the test's own is stopped (SIGSTOP) for
 * longer than the read timeout and the leases, with its connections open and its data kept, while
 * three JVMs call a fail-closed bulkhead of 2; then it is continued and answers everything it was
 * sent meanwhile, late. Nobody may be let in beside the limit — not while it stood still, not by a
 * late reply, not after it woke with every lease run out —, no call may hang (each ends within its
 * waiting time plus the read timeout and a bound), and the bulkhead works again once it is back.
 */
@ExtendWith(KeptHistories.class)
class PausedStoreTest {

  private static final int VALUE = 2;
  private static final Duration WAITING_TIME = Duration.ofMillis(200);
  private static final Duration READ_TIMEOUT = Duration.ofMillis(500);
  private static final Duration LEASE = Duration.ofSeconds(1);
  private static final Duration RUN = Duration.ofSeconds(10);
  private static final Duration PAUSED_AT = Duration.ofSeconds(3);
  private static final Duration PAUSE = Duration.ofMillis(2_500);

  /**
   * What a call may take beyond its waiting time and the read timeout: a call whose operation was
   * written just before another call's reply timed out waits for that one's timeout too, and the
   * gate's probe needs a round of its own on a loaded machine.
   */
  private static final Duration BOUND = Duration.ofSeconds(2);

  /** From the resume on, the store is back for new calls once the gate's probe saw it (1 s). */
  private static final Duration RECOVERY = Duration.ofSeconds(2);

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aStoppedRedisLetsNobodyInBesideTheLimitNoCallHangsAndTheLimitWorksOnceItIsBack() {
    Assumptions.assumeTrue(Stores.selected("redis"), "the Redis store is not selected");
    Path dir = Path.of(System.getProperty("basedir", "."), "target", "paused-servers");
    try (RedisServerProcess server = RedisServerProcess.start(dir);
        ClusterRun run =
            new ClusterRun("paused-store", RedisUnderTest.standalone(server.url()))
                .config("bulwark.failure-policy", "fail-closed")
                .config("bulwark.redis.read-timeout", READ_TIMEOUT.toMillis() + "ms")) {
      Map<String, String> limits =
          Map.of(
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value", String.valueOf(VALUE),
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
                  WAITING_TIME.toMillis() + "ms",
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".lease", LEASE.toMillis() + "ms");
      run.workers(
          3,
          limits,
          WorkerOptions.args(
              "scenario", "bulkhead",
              "threads", 4,
              "duration", RUN.toMillis(),
              "hold-min", 20,
              "hold-max", 40,
              "pause-after-reject", 10));
      long start = run.startAll();

      Waiting.untilInstant(start + PAUSED_AT.toNanos());
      server.pause();
      long pausedAt = System.nanoTime();
      try {
        Waiting.untilInstant(pausedAt + PAUSE.toNanos());
      } finally {
        server.resume();
      }
      long resumedAt = System.nanoTime();
      run.awaitAll(Duration.ofSeconds(60));

      Recording recording = run.recording();
      List<CallRecord> calls = recording.calls();
      List<CallRecord> before = recording.calls(c -> c.returnNanos() < pausedAt);
      List<CallRecord> whilePaused =
          recording.calls(
              c ->
                  c.requestNanos() > pausedAt + READ_TIMEOUT.toNanos()
                      && c.returnNanos() < resumedAt);
      List<CallRecord> after =
          recording.calls(c -> c.requestNanos() > resumedAt + RECOVERY.toNanos());
      CallRecord longest =
          calls.stream()
              .max(Comparator.comparingLong(c -> c.returnNanos() - c.requestNanos()))
              .orElseThrow();
      Duration allowed = WAITING_TIME.plus(READ_TIMEOUT).plus(BOUND);
      run.report(
          String.format(
              "paused store: stopped %.0f ms (read timeout %d ms, lease %d ms); before %s;"
                  + " while stopped %s; after %s; longest call %.0f ms (%s), allowed %d ms;"
                  + " most inside, live counter %d",
              Millis.of(resumedAt - pausedAt),
              READ_TIMEOUT.toMillis(),
              LEASE.toMillis(),
              outcomes(before),
              outcomes(whilePaused),
              outcomes(after),
              Millis.of(longest.returnNanos() - longest.requestNanos()),
              longest.outcome(),
              allowed.toMillis(),
              run.counters().maxInside()));

      run.check(recording, CapacityRule.atMost(VALUE));
      assertThat(run.counters().maxInside())
          .as("never more than the limit inside, live counter")
          .isLessThanOrEqualTo(VALUE);
      assertThat(before.stream().filter(CallRecord::completed).count())
          .as("calls that ran before the store stopped")
          .isPositive();
      assertThat(whilePaused).as("calls while the store stood still").isNotEmpty();
      Violations.all(
          "fail-closed: every call while the store stood still fails with"
              + " StoreUnavailableException",
          whilePaused,
          c -> c.rejectedWith("StoreUnavailableException"));
      Violations.all(
          "every call ends within its waiting time, the read timeout and "
              + BOUND.toMillis()
              + " ms",
          calls,
          c -> c.returnNanos() - c.requestNanos() <= allowed.toNanos());
      assertThat(after.stream().filter(CallRecord::completed).count())
          .as("calls that ran once the store was back")
          .isPositive();
      Violations.all(
          "no StoreUnavailableException once the store is back",
          after,
          c -> !c.rejectedWith("StoreUnavailableException"));
    }
  }

  private static Map<String, Long> outcomes(List<CallRecord> calls) {
    return calls.stream()
        .collect(
            Collectors.groupingBy(CallRecord::outcome, LinkedHashMap::new, Collectors.counting()));
  }
}
