package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.Concurrency;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.StoreUnderTest;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.harness.WorkerProcesses;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.CapacityRule;
import dev.bulwark.it.cluster.history.Violations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One {@code @DistributedBulkhead} of 5 shared by four worker JVMs, on every shared store (Redis,
 * the JPA store on PostgreSQL and on MariaDB): with callers that wait (never over the limit, first
 * come first served) and with callers that fail fast (never over the limit, rejections counted),
 * the latter also on the JPA store through a persistence unit whose database defaults to REPEATABLE
 * READ.
 */
@ExtendWith(KeptHistories.class)
class BulkheadAcrossJvmsTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.bulwark.it.cluster.harness.Stores#shared")
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void waitingCallersNeverOvershootAndAreServedInArrivalOrder(StoreUnderTest store) {
    try (ClusterRun run = new ClusterRun("bulkhead-fifo", store)) {
      FairBulkheadScenario.runAndCheck(run);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({
    "dev.bulwark.it.cluster.harness.Stores#shared",
    "dev.bulwark.it.cluster.harness.Stores#repeatableReadUnit"
  })
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void failFastCallersNeverOvershootAndEveryCallIsAccountedFor(StoreUnderTest store) {
    int value = 5;
    int workers = 4;
    int threads = 8;
    int callsPerThread = 40;
    try (ClusterRun run = new ClusterRun("bulkhead-fail-fast", store)) {
      Map<String, String> limits =
          Map.of(
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value",
              String.valueOf(value),
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
              "0");
      List<WorkerProcesses.Worker> started =
          run.workers(
              workers,
              limits,
              WorkerOptions.args(
                  "scenario",
                  "bulkhead",
                  "threads",
                  threads,
                  "calls",
                  callsPerThread,
                  "hold-min",
                  20,
                  "hold-max",
                  50,
                  // a rejected caller comes back soon, but does not spin on the store
                  "pause-after-reject",
                  10));
      run.startAll();
      run.awaitAll(Duration.ofSeconds(60));

      Recording recording = run.recording();
      int callsMade = workers * threads * callsPerThread;
      long completed = recording.count(CallRecord.OK);
      long rejected = recording.count("BulkheadFullException");
      int maxInside = Concurrency.of(recording.calls()).max();
      long counterMax = run.counters().maxInside();
      run.report(
          String.format(
              "fail-fast bulkhead: %d calls made, %d completed, %d rejected"
                  + " (BulkheadFullException), outcomes %s, max inside recorded %d / counter %d"
                  + " (limit %d)",
              callsMade, completed, rejected, recording.outcomes(), maxInside, counterMax, value));

      run.check(recording, CapacityRule.atMost(value));
      started.forEach(w -> assertThat(recording.isDone(w.name())).as(w + " done").isTrue());
      assertThat(recording.calls().size()).as("every call recorded").isEqualTo(callsMade);
      assertThat(completed + rejected).as("completions + rejections").isEqualTo(callsMade);
      assertThat(counterMax).as("most inside at once, live counter").isLessThanOrEqualTo(value);
      assertThat(rejected).as("rejections: the bulkhead was contended").isPositive();
      assertThat(completed).as("completions").isPositive();
      // a rejected call never ran its body
      Violations.none(
          "rejected calls that ran their body",
          recording.calls(c -> !c.completed() && c.entered()));
    }
  }
}
