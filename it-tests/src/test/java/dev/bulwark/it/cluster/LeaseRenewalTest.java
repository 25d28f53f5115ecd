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
import dev.bulwark.it.cluster.history.Millis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A call three times as long as its lease (lease 1 s, call 3 s, bulkhead of 1) keeps its permit
 * because its JVM renews the lease; the other JVMs, trying all along, never get in beside it — and
 * do get in once it is over.
 */
@ExtendWith(KeptHistories.class)
class LeaseRenewalTest {

  private static final Duration LEASE = Duration.ofSeconds(1);
  private static final Duration CALL = Duration.ofSeconds(3);

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.bulwark.it.cluster.harness.Stores#shared")
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aCallLongerThanItsLeaseKeepsItsPermitAndNobodySlipsInBesideIt(StoreUnderTest store) {
    try (ClusterRun run = new ClusterRun("lease-renewal", store)) {
      Map<String, String> limits =
          Map.of(
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value", "1",
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time", "0",
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".lease", LEASE.toMillis() + "ms");
      WorkerProcesses.Worker holder =
          run.worker(
              "holder",
              limits,
              Map.of(),
              WorkerOptions.args(
                  "scenario", "bulkhead", "threads", 1, "calls", 1, "hold-min", CALL.toMillis()));
      List<String> contenderArgs =
          WorkerOptions.args(
              "scenario", "bulkhead",
              "threads", 3,
              "duration", 4200,
              "hold-min", 20,
              "start-delay", 300,
              "pause-after-reject", 20);
      run.worker("c1", limits, Map.of(), contenderArgs);
      run.worker("c2", limits, Map.of(), contenderArgs);
      run.startAll();
      run.awaitAll(Duration.ofSeconds(30));

      Recording recording = run.recording();
      CallRecord held = recording.calls(c -> c.worker().equals("holder")).get(0);
      List<CallRecord> contenders = recording.calls(c -> !c.worker().equals("holder"));
      List<CallRecord> besideIt =
          contenders.stream()
              .filter(CallRecord::entered)
              .filter(c -> c.enterNanos() < held.exitNanos() && held.enterNanos() < c.exitNanos())
              .toList();
      long rejectedMeanwhile =
          contenders.stream()
              .filter(c -> c.rejectedWith("BulkheadFullException"))
              .filter(c -> c.requestNanos() > held.enterNanos() && c.exitNanos() < held.exitNanos())
              .count();
      long enteredAfter =
          contenders.stream()
              .filter(CallRecord::entered)
              .filter(c -> c.enterNanos() > held.exitNanos())
              .count();
      long firstContenderRequest =
          contenders.stream().mapToLong(CallRecord::requestNanos).min().orElseThrow();
      int maxInside = Concurrency.of(recording.calls()).max();
      long counterMax = run.counters().maxInside();
      String holderLog = holder.stderrText();
      run.report(
          String.format(
              "lease renewal: held %.0f ms on a %d ms lease (%s), %d contender calls %s, %d"
                  + " rejected while it ran, %d entered beside it, %d entered after it, max inside"
                  + " %d / live counter %d",
              Millis.of(held.exitNanos() - held.enterNanos()),
              LEASE.toMillis(),
              held.outcome(),
              contenders.size(),
              recording.outcomes(),
              rejectedMeanwhile,
              besideIt.size(),
              enteredAfter,
              maxInside,
              counterMax));

      run.check(recording, CapacityRule.atMost(1));
      assertThat(held.outcome()).as("the long call").isEqualTo(CallRecord.OK);
      assertThat(Duration.ofNanos(held.exitNanos() - held.enterNanos()))
          .isGreaterThanOrEqualTo(CALL);
      assertThat(held.enterNanos())
          .as("the long call held the permit before the contenders began")
          .isLessThan(firstContenderRequest);
      assertThat(rejectedMeanwhile).as("contenders rejected while it ran").isGreaterThan(50);
      assertThat(enteredAfter).as("contenders that got in once it was over").isPositive();
      assertThat(maxInside).as("the permit was taken").isEqualTo(1);
      assertThat(counterMax).as("most inside at once, live counter").isEqualTo(1);
      assertThat(holderLog).as("the holder's log").doesNotContain("lease ran out");
    }
  }
}
