package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.Concurrency;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.JpaUnderTest;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.RedisRestart;
import dev.bulwark.it.cluster.harness.RelayCut;
import dev.bulwark.it.cluster.harness.StoreOutage;
import dev.bulwark.it.cluster.harness.Stores;
import dev.bulwark.it.cluster.harness.Waiting;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.harness.WorkerProcesses;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.CapacityRule;
import dev.bulwark.it.cluster.history.HistoryRule;
import dev.bulwark.it.cluster.history.Millis;
import dev.bulwark.it.cluster.history.Violations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * On every store: the store becomes unreachable mid-run and reachable again ({@link StoreOutage}: a
 * Redis of the test's own stops and starts again, empty; a shared database is cut off behind a
 * relay). Three groups of two JVMs run through the same outage, one per failure policy: {@code
 * fail-closed} must throw {@code StoreUnavailableException} while the store is down, {@code
 * fail-open} must let every call through, {@code local} must enforce the limit per JVM; afterwards
 * all three must be back on the store — the cluster-wide limit holds again and the store sees their
 * traffic — without restarting a JVM.
 */
@ExtendWith(KeptHistories.class)
class StoreOutageTest {

  private static final int VALUE = 2;
  private static final int WORKERS_PER_POLICY = 2;
  private static final int THREADS = 4;

  /**
   * Long enough after the restore for a loaded machine: a JDBC pool that times out opening its
   * first connections through the restored relay tries again, and a store's probe follows it.
   */
  private static final Duration RUN = Duration.ofMillis(16_000);

  private static final Duration DOWN_AT = Duration.ofMillis(3_000);
  private static final Duration UP_AT = Duration.ofMillis(6_500);

  /**
   * Permits that calls held or asked for at the cut stay in a store whose data survives the outage
   * (a database behind a relay) until their lease runs out, since their release or cancel could not
   * reach it; had a request abandoned in the queue outlived a holder, it would be handed a permit,
   * with a lease of its own, that nobody releases. Leases this short have all run out while the
   * store is down (3.5 s), so what the test sees after the restart is the store itself.
   */
  private static final Duration LEASE = Duration.ofSeconds(2);

  /** Calls already on their way when the store went down may still have reached it. */
  private static final Duration SETTLE_AFTER_DOWN = Duration.ofMillis(500);

  /**
   * The store probes once per reconnect interval (1 s); a JDBC pool then needs up to its connect
   * timeout (2 s) to open new connections through the restored relay: give it that.
   */
  private static final Duration RECOVERY = Duration.ofMillis(3_000);

  private static final List<String> POLICIES = List.of("fail-closed", "fail-open", "local");

  static Stream<Named<Function<Path, StoreOutage>>> outages() {
    return Stream.<Named<Function<Path, StoreOutage>>>of(
            Named.of("redis", RedisRestart::start),
            Named.of("jpa-postgresql", dir -> new RelayCut(JpaUnderTest.postgresql())),
            Named.of("jpa-mariadb", dir -> new RelayCut(JpaUnderTest.mariadb())))
        .filter(outage -> Stores.selected(outage.getName()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outages")
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void eachFailurePolicyDoesWhatItSaysWhileTheStoreIsDownAndTheStoreResumesAfterwards(
      Function<Path, StoreOutage> outages) {
    Path serverDir = Path.of(System.getProperty("basedir", "."), "target", "outage-servers");
    Map<String, ClusterRun> runs = new LinkedHashMap<>();
    try (StoreOutage outage = outages.apply(serverDir)) {
      try {
        for (String policy : POLICIES) {
          ClusterRun run =
              new ClusterRun("outage-" + policy, outage.store())
                  .config("bulwark.failure-policy", policy);
          runs.put(policy, run);
          Map<String, String> limits =
              Map.of(
                  "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value",
                  String.valueOf(VALUE),
                  "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
                  "100ms",
                  "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".lease",
                  LEASE.toMillis() + "ms");
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
        // one start for all three groups: each must live through the outage at the same moment
        long start = ClusterRun.startTogether(runs.values());

        Waiting.untilInstant(start + DOWN_AT.toNanos());
        long goingDown = System.nanoTime();
        outage.cut();
        long down = System.nanoTime();
        Waiting.untilInstant(start + UP_AT.toNanos());
        long up = System.nanoTime();
        outage.restore();
        // while the workers still run: each group must be seen using the store again
        Map<String, Boolean> usedAgain = new LinkedHashMap<>();
        long sampleUntil = start + RUN.toNanos() - TimeUnit.MILLISECONDS.toNanos(200);
        for (String policy : POLICIES) {
          usedAgain.put(policy, outage.usedAgain(runs.get(policy), sampleUntil));
        }
        for (ClusterRun run : runs.values()) {
          run.awaitAll(Duration.ofSeconds(30));
        }

        for (String policy : POLICIES) {
          check(policy, runs.get(policy), start, goingDown, down, up, usedAgain.get(policy));
        }
      } finally {
        runs.values().forEach(ClusterRun::close);
      }
    }
  }

  /**
   * Judges one policy's records by request time: before {@code goingDown} the store answered; from
   * a moment after {@code down} (cut off) until {@code up} (reachable again) nothing could; from
   * {@link #RECOVERY} after {@code up} the workers must be back on the store.
   */
  private static void check(
      String policy,
      ClusterRun run,
      long start,
      long goingDown,
      long down,
      long up,
      boolean usedAgain) {
    Recording recording = run.recording();
    long downFrom = down + SETTLE_AFTER_DOWN.toNanos();
    long downTo = up - TimeUnit.MILLISECONDS.toNanos(100);
    long afterFrom = up + RECOVERY.toNanos();
    long end = start + RUN.toNanos();
    // calls over before the store went down (a caller queued at that moment may see the outage)
    List<CallRecord> before = recording.calls(c -> c.exitNanos() < goingDown);
    // asked and answered while down: a call still waiting for a connection at the restore (a
    // JDBC pool tries for its connect timeout) may be answered by the store that is back
    List<CallRecord> during =
        recording.calls(
            c -> c.requestNanos() > downFrom && c.requestNanos() < downTo && c.exitNanos() < up);
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
                + " after restart %s max inside %d; store used again: %s;"
                + " down %.0f ms after the start, up again %.0f ms after",
            policy,
            outcomes(before),
            all.max(Long.MIN_VALUE, goingDown),
            outcomes(during),
            all.max(downFrom, downTo),
            perJvmDuring,
            outcomes(after),
            all.max(afterFrom, end),
            usedAgain,
            Millis.of(down - start),
            Millis.of(up - start)));

    run.check(recording, rules(policy, goingDown, downFrom, downTo, afterFrom));
    assertThat(before.size()).as(policy + ": calls before the outage").isPositive();
    Violations.all(
        policy + ": no StoreUnavailableException before the outage",
        before,
        c -> !c.rejectedWith("StoreUnavailableException"));
    assertThat(during.size()).as(policy + ": calls while the store was down").isPositive();
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
        // the scenario shows something only if the unguarded calls did crowd in
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
      }
    }
    assertThat(after.stream().filter(CallRecord::completed).count())
        .as(policy + ": calls that ran after the restart")
        .isPositive();
    Violations.all(
        policy + ": no StoreUnavailableException once the store is back",
        after,
        c -> !c.rejectedWith("StoreUnavailableException"));
    assertThat(usedAgain).as(policy + ": the workers use the store again").isTrue();
  }

  /**
   * What the history must show under {@code policy}: {@code fail-closed} never lets more than the
   * limit in; the others keep the cluster-wide limit before the outage and, among the calls entered
   * from {@link #RECOVERY} after it, from then on (a call let in while the store was away, stalled
   * on a loaded machine, may still be inside), and {@code local} keeps it per JVM while the store
   * is down.
   */
  private static HistoryRule[] rules(
      String policy, long goingDown, long downFrom, long downTo, long afterFrom) {
    return switch (policy) {
      case "fail-closed" -> new HistoryRule[] {CapacityRule.atMost(VALUE)};
      case "fail-open" ->
          new HistoryRule[] {
            CapacityRule.atMost(VALUE).during(Long.MIN_VALUE, goingDown),
            CapacityRule.atMost(VALUE).during(afterFrom, Long.MAX_VALUE).enteredFrom(afterFrom)
          };
      default ->
          new HistoryRule[] {
            CapacityRule.atMost(VALUE).during(Long.MIN_VALUE, goingDown),
            CapacityRule.atMost(VALUE).perWorker().during(downFrom, downTo),
            CapacityRule.atMost(VALUE).during(afterFrom, Long.MAX_VALUE).enteredFrom(afterFrom)
          };
    };
  }

  private static Map<String, Long> outcomes(List<CallRecord> calls) {
    return calls.stream()
        .collect(
            Collectors.groupingBy(CallRecord::outcome, LinkedHashMap::new, Collectors.counting()));
  }
}
