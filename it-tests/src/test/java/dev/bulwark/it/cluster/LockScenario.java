package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.Concurrency;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.harness.WorkerProcesses;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.FencingRule;
import dev.bulwark.it.cluster.history.LockExclusionRule;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One {@code @DistributedLock} name used by 3 JVMs × 6 threads on 16 keys, 40 % writes, each
 * holding 1–4 ms. Checked per key from the run's history: a writer never overlaps anyone ({@link
 * LockExclusionRule}), and the fencing tokens of write grants strictly increase in grant order
 * ({@link FencingRule}); the live counters saw no violation either. Run on every shared store, on a
 * Redis Cluster and on H2's auto-server mode.
 */
final class LockScenario {

  static final int WORKERS = 3;
  static final int THREADS = 6;
  static final int KEYS = 16;
  static final Duration DURATION = Duration.ofSeconds(4);

  /** Per thread, made even past {@link #DURATION} on a loaded machine, up to the maximum. */
  static final int MIN_CALLS = 20;

  static final Duration MAX_DURATION = Duration.ofSeconds(30);

  private LockScenario() {}

  static void runAndCheck(ClusterRun run) {
    Map<String, String> limits =
        Map.of(
            "bulwark.lock." + GuardedOperations.LOCK + ".waiting-time", "20s",
            "bulwark.lock." + GuardedOperations.LOCK + ".lease", "10s");
    List<WorkerProcesses.Worker> workers =
        run.workers(
            WORKERS,
            limits,
            WorkerOptions.args(
                "scenario",
                "lock",
                "threads",
                THREADS,
                "duration",
                DURATION.toMillis(),
                // 18 threads × 20 calls at 40 % writes: about 144 writes, the check wants > 100
                "min-calls",
                MIN_CALLS,
                "max-duration",
                MAX_DURATION.toMillis(),
                "keys",
                KEYS,
                "write-share",
                0.4,
                "hold-min",
                1,
                "hold-max",
                4));
    run.startAll();
    run.awaitAll(Duration.ofSeconds(60));

    Recording recording = run.recording();
    List<CallRecord> calls = recording.calls();
    Map<String, List<CallRecord>> byKey =
        calls.stream().filter(CallRecord::entered).collect(Collectors.groupingBy(CallRecord::key));
    long writes = calls.stream().filter(c -> "WRITE".equals(c.kind())).count();
    int maxReadersTogether =
        byKey.values().stream()
            .mapToInt(
                onKey ->
                    Concurrency.of(onKey.stream().filter(c -> "READ".equals(c.kind())).toList())
                        .max())
            .max()
            .orElse(0);
    long violations = run.counters().lockViolations();
    run.report(
        String.format(
            "lock: %d calls on %d keys (%d writes), outcomes %s, counter violations %d, most"
                + " readers together on one key %d",
            calls.size(),
            byKey.size(),
            writes,
            recording.outcomes(),
            violations,
            maxReadersTogether));

    run.check(recording, LockExclusionRule.writersAlone(), FencingRule.tokensGrowPerKey());
    workers.forEach(w -> assertThat(recording.isDone(w.name())).as(w + " done").isTrue());
    assertThat(recording.count(CallRecord.OK)).as("completed calls").isEqualTo(calls.size());
    assertThat(byKey.size()).as("keys used").isEqualTo(KEYS);
    assertThat(writes).as("write grants").isGreaterThan(100);
    assertThat(violations).as("violations seen by the live counters").isZero();
  }
}
