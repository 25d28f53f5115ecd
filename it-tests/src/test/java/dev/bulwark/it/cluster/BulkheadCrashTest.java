package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.Concurrency;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.LiveCounters;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.StoreUnderTest;
import dev.bulwark.it.cluster.harness.Waiting;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.harness.WorkerProcesses;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.CapacityRule;
import dev.bulwark.it.cluster.history.Millis;
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
 * A JVM that holds 3 of a bulkhead's 5 permits dies by SIGKILL. Its permits must come back when
 * their lease runs out (lease 2 s, so within lease + 1 s of the kill), not before the lease could
 * have run out, and the limit must hold throughout.
 */
@ExtendWith(KeptHistories.class)
class BulkheadCrashTest {

  private static final int VALUE = 5;
  private static final int VICTIM_HOLDS = 3;
  private static final Duration LEASE = Duration.ofSeconds(2);

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.bulwark.it.cluster.harness.Stores#shared")
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void permitsOfAKilledJvmComeBackAfterTheirLeaseAndTheLimitHoldsMeanwhile(StoreUnderTest store) {
    try (ClusterRun run = new ClusterRun("bulkhead-crash", store)) {
      Map<String, String> limits =
          Map.of(
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value",
              String.valueOf(VALUE),
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
              "10s",
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".lease",
              LEASE.toMillis() + "ms");
      // the victim's calls would hold their permits for a minute: only the kill ends them
      WorkerProcesses.Worker victim =
          run.worker(
              "victim",
              limits,
              Map.of(),
              WorkerOptions.args(
                  "scenario", "bulkhead", "threads", VICTIM_HOLDS, "calls", 1, "hold-min", 60_000));
      List<WorkerProcesses.Worker> others =
          List.of(
              run.worker("w1", limits, Map.of(), othersArgs()),
              run.worker("w2", limits, Map.of(), othersArgs()));
      LiveCounters counters = run.counters();
      long start = run.startAll();
      Waiting.until(
          () -> counters.inside("victim") == VICTIM_HOLDS,
          Duration.ofSeconds(10),
          "the victim holds " + VICTIM_HOLDS + " permits");
      // the others work beside the victim for a while, then it dies
      Waiting.untilInstant(start + TimeUnit.MILLISECONDS.toNanos(1500));
      victim.kill();
      long killed = System.nanoTime();
      // it will never record its exits: its permits leave the live count now, though the store
      // frees them only later; until then the records below check the tighter bound
      long forgotten = counters.forget("victim");
      run.awaitExit(others, Duration.ofSeconds(30));

      Recording recording = run.recording();
      List<CallRecord> victimCalls = recording.calls(c -> c.worker().equals("victim"));
      List<CallRecord> otherCalls = recording.calls(c -> !c.worker().equals("victim"));
      Concurrency besides = Concurrency.of(otherCalls);
      long victimInside =
          victimCalls.stream().mapToLong(CallRecord::enterNanos).max().orElseThrow();
      // a lease is renewed every third of it, so none can run out before 2/3 lease after the kill
      long earliestReturn = killed + LEASE.toNanos() / 2;
      int maxBesideVictim = besides.max(victimInside, earliestReturn);
      long firstBack = besides.firstReaching(VALUE - VICTIM_HOLDS + 1, killed);
      long allBack = besides.firstReaching(VALUE, killed);
      run.report(
          String.format(
              "crash: victim held %d permits (live count %d at the kill), others' calls %d %s,"
                  + " others inside at most %d while the victim's permits were held (limit %d),"
                  + " first permit back %.0f ms after the kill, all %d back after %.0f ms"
                  + " (lease %d ms), max inside overall %d / live counter %d",
              victimCalls.size(),
              forgotten,
              otherCalls.size(),
              recording.outcomes(),
              maxBesideVictim,
              VALUE - VICTIM_HOLDS,
              firstBack < 0 ? -1 : Millis.of(firstBack - killed),
              VICTIM_HOLDS,
              allBack < 0 ? -1 : Millis.of(allBack - killed),
              LEASE.toMillis(),
              besides.max(),
              counters.maxInside()));

      // the victim's holds last at least until the earliest end of their lease: the others may
      // use only what is left of the limit until then
      run.check(recording, CapacityRule.atMost(VALUE).unendedHeldUntil(earliestReturn));
      assertThat(victimCalls).as("the victim's calls, inside when it died").hasSize(VICTIM_HOLDS);
      Violations.all(
          "the victim's calls were inside when it died",
          victimCalls,
          c -> CallRecord.INSIDE.equals(c.outcome()));
      assertThat(forgotten).as("victim's live count at the kill").isEqualTo(VICTIM_HOLDS);
      assertThat(firstBack).as("a permit of the dead JVM came back").isPositive();
      assertThat(allBack).as("all permits of the dead JVM came back").isPositive();
      assertThat(Duration.ofNanos(allBack - killed))
          .as("time from the kill until every permit was back")
          .isLessThanOrEqualTo(LEASE.plusSeconds(1));
      assertThat(counters.maxInside()).as("most inside, live counter").isLessThanOrEqualTo(VALUE);
      assertThat(recording.count(CallRecord.OK))
          .as("the others' calls all completed")
          .isEqualTo(otherCalls.size());
    }
  }

  private static List<String> othersArgs() {
    return WorkerOptions.args(
        "scenario", "bulkhead",
        "threads", 4,
        "duration", 6000,
        "hold-min", 20,
        "hold-max", 50,
        // the victim takes its permits first
        "start-delay", 500);
  }
}
