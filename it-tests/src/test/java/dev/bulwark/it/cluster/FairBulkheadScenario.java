package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.Concurrency;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.StoreUnderTest;
import dev.bulwark.it.cluster.harness.WakeUpLag;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.harness.WorkerProcesses;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.CapacityRule;
import dev.bulwark.it.cluster.history.FifoRule;
import dev.bulwark.it.cluster.history.History;
import dev.bulwark.it.cluster.history.Millis;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A bulkhead of 5 shared by 4 JVMs × 8 threads, each call holding its permit 20–50 ms, every caller
 * allowed to wait long enough. Checked: never more than 5 inside (the history's {@link
 * CapacityRule} and the live counter), every call completes, waiters enter in the order they asked
 * (the history's {@link FifoRule}, within {@link #REQUEST_TOLERANCE} and the store's {@link
 * StoreUnderTest#wakeUpSpread()}), on a store that {@link StoreUnderTest#queuesInArrivalOrder()
 * queues in arrival order}. Run on every store; on a Redis Cluster with the same tolerances as on a
 * standalone Redis: each JVM subscribes to its wake-up channel on every primary, so a hand-over
 * reaches the waiter from the node that made it.
 */
final class FairBulkheadScenario {

  static final int VALUE = 5;
  static final int WORKERS = 4;
  static final int THREADS = 8;
  static final int CALLS_PER_THREAD = 12;

  /** A caller counts as a waiter when its entry came this long after its request. */
  static final Duration WAITED = Duration.ofMillis(5);

  /**
   * Requests closer than this are not ordered: the stamp is taken before the interceptor and the
   * round trip to Redis, which a scheduling slice on two shared cores can stretch by a few ms.
   */
  static final Duration REQUEST_TOLERANCE = Duration.ofMillis(3);

  /**
   * The share of comparable pairs (see {@link FifoRule#comparablePairs}) that may still come out
   * inverted: a thread preempted between its request stamp and Redis, or woken late, on two cores
   * shared by four worker JVMs, the test JVM, Redis and the build. An unordered queue inverts about
   * half of them.
   */
  static final double NOISE_SHARE = 0.01;

  private FairBulkheadScenario() {}

  /**
   * Arrival order among warm calls: entries closer than the store's wake-up spread are not ordered
   * (the granted waiter's wake-up, a publish or a NOTIFY to its JVM, or its JVM's next look, varies
   * by about that much).
   */
  static FifoRule fifo(StoreUnderTest store) {
    return FifoRule.within(WAITED, REQUEST_TOLERANCE, store.wakeUpSpread(), NOISE_SHARE)
        .only(FairBulkheadScenario::warm, "warm calls");
  }

  /**
   * A thread's first call runs a cold path (class loading, the JIT, the store's first connection,
   * script load and wake-up subscription) that can hold it tens of ms between its request stamp and
   * its arrival at the store: its stamp says nothing about its place in the queue.
   */
  private static boolean warm(CallRecord call) {
    return call.seq() > 0;
  }

  static void runAndCheck(ClusterRun run) {
    runAndCheck(run, WORKERS);
  }

  /** The scenario with {@code workers} JVMs instead of {@link #WORKERS}. */
  static void runAndCheck(ClusterRun run, int workers) {
    Map<String, String> limits =
        Map.of(
            "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value",
            String.valueOf(VALUE),
            "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
            "20s");
    List<WorkerProcesses.Worker> started =
        run.workers(
            workers,
            limits,
            WorkerOptions.args(
                "scenario",
                "bulkhead",
                "threads",
                THREADS,
                "calls",
                CALLS_PER_THREAD,
                "hold-min",
                20,
                "hold-max",
                50));
    run.startAll();
    run.awaitAll(Duration.ofSeconds(60));

    Recording recording = run.recording();
    int expectedCalls = workers * THREADS * CALLS_PER_THREAD;
    List<CallRecord> calls = recording.calls();
    int maxInside = Concurrency.of(calls).max();
    long counterMax = run.counters().maxInside();
    FifoRule fifo = fifo(run.store());
    History history = recording.history();
    List<CallRecord> waiters = fifo.waiters(history);
    long comparable = fifo.comparablePairs(waiters);
    long elapsed =
        calls.stream().mapToLong(CallRecord::exitNanos).max().orElse(0)
            - calls.stream().mapToLong(CallRecord::requestNanos).min().orElse(0);
    run.report(
        String.format(
            "fair bulkhead: %d calls, outcomes %s, max inside recorded %d / counter %d (limit %d),"
                + " %s, worst slip without tolerance %.2f ms, %.0f ms from first request to last"
                + " exit, wake-up lag per JVM (median/p90/max ms) %s",
            calls.size(),
            recording.outcomes(),
            maxInside,
            counterMax,
            VALUE,
            recording.stallSummary(),
            FifoRule.worstSlipMillis(waiters),
            Millis.of(elapsed),
            WakeUpLag.perWorker(waiters, calls)));

    // the limit on every store; arrival order where the store queues in it
    if (run.store().queuesInArrivalOrder()) {
      run.check(recording, CapacityRule.atMost(VALUE), fifo);
    } else {
      run.judge(recording, fifo);
      run.check(recording, CapacityRule.atMost(VALUE));
    }
    started.forEach(w -> assertThat(recording.isDone(w.name())).as(w + " done").isTrue());
    assertThat(calls.size()).as("every call recorded").isEqualTo(expectedCalls);
    assertThat(recording.count(CallRecord.OK)).as("completed calls").isEqualTo(expectedCalls);
    assertThat(counterMax).as("most calls inside at once, live counter").isLessThanOrEqualTo(VALUE);
    // the scenario only proves something if the bulkhead was full and callers queued
    assertThat(maxInside).as("the bulkhead was full at some point").isEqualTo(VALUE);
    long warm = calls.stream().filter(FairBulkheadScenario::warm).count();
    assertThat((long) waiters.size()).as("callers that had to wait").isGreaterThan(warm / 2);
    assertThat(comparable).as("pairs of waiters queued together").isGreaterThan(1000);
  }
}
