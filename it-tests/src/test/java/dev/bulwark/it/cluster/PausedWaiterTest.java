package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.StoreUnderTest;
import dev.bulwark.it.cluster.harness.Waiting;
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
 * A waiter stops (SIGSTOP) while it is queued for a bulkhead of 1 and stays stopped past the lease:
 * the holder before it releases, so the permit is handed to the stopped waiter, whose lease then
 * runs out with nobody renewing it, and the JVM queued behind takes the permit and keeps calling.
 * When the stopped waiter is continued it finds its hand-over notice (and its waiting time not yet
 * over): it must not enter beside the one inside on the strength of a grant that lapsed — the store
 * no longer holds its request, so it asks again and waits on. Its call ends either way — admitted
 * alone, or refused — within its waiting time; the JVM behind it was held up by at most a lease (on
 * the JPA store, or until the stopped JVM woke: a transaction it was in holds the limit's row).
 */
@ExtendWith(KeptHistories.class)
class PausedWaiterTest {

  private static final Duration LEASE = Duration.ofSeconds(1);
  private static final Duration WAITING_TIME = Duration.ofSeconds(10);
  private static final Duration HOLD = Duration.ofMillis(1_500);

  /** From the start: the waiter asks at 300 ms, is stopped at 900 ms for 3.5 s. */
  private static final Duration WAITER_ASKS = Duration.ofMillis(300);

  private static final Duration PAUSED_AT = Duration.ofMillis(900);
  private static final Duration PAUSE = Duration.ofMillis(3_500);

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.bulwark.it.cluster.harness.Stores#shared")
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aWaiterStoppedWhileHandedThePermitDoesNotEnterOnALapsedGrant(StoreUnderTest store) {
    try (ClusterRun run = new ClusterRun("paused-waiter", store)) {
      Map<String, String> limits =
          Map.of(
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value", "1",
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
                  WAITING_TIME.toMillis() + "ms",
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".lease", LEASE.toMillis() + "ms");
      run.worker(
          "holder",
          limits,
          Map.of(),
          WorkerOptions.args(
              "scenario", "bulkhead", "threads", 1, "calls", 1, "hold-min", HOLD.toMillis()));
      WorkerProcesses.Worker waiter =
          run.worker(
              "waiter",
              limits,
              Map.of(),
              WorkerOptions.args(
                  "scenario", "bulkhead",
                  "threads", 1,
                  "calls", 1,
                  "hold-min", 200,
                  "start-delay", WAITER_ASKS.toMillis()));
      // queued behind the waiter, then calling on until after the waiter is back
      run.worker(
          "behind",
          limits,
          Map.of(),
          WorkerOptions.args(
              "scenario", "bulkhead",
              "threads", 1,
              "calls", 1_000,
              "duration", 7_000,
              "hold-min", 150,
              "start-delay", 600));
      long start = run.startAll();

      Waiting.untilInstant(start + PAUSED_AT.toNanos());
      waiter.pause();
      long pausedAt = System.nanoTime();
      try {
        Waiting.untilInstant(pausedAt + PAUSE.toNanos());
      } finally {
        waiter.resume();
      }
      long resumedAt = System.nanoTime();
      run.awaitAll(Duration.ofSeconds(60));

      Recording recording = run.recording();
      CallRecord held = recording.calls(c -> c.worker().equals("holder")).get(0);
      CallRecord waited = recording.calls(c -> c.worker().equals("waiter")).get(0);
      List<CallRecord> behind = recording.calls(c -> c.worker().equals("behind"));
      CallRecord firstBehind =
          behind.stream().filter(CallRecord::entered).findFirst().orElseThrow();
      run.report(
          String.format(
              "paused waiter: stopped %.0f ms from %.0f ms after the start; holder released at"
                  + " %.0f ms; the one behind entered at %.0f ms (%d calls %s); the waiter's call:"
                  + " %s, asked at %.0f, entered at %.0f, returned at %.0f ms",
              Millis.of(resumedAt - pausedAt),
              Millis.of(pausedAt - start),
              Millis.of(held.exitNanos() - start),
              Millis.of(firstBehind.enterNanos() - start),
              behind.size(),
              recording.outcomes(),
              waited.outcome(),
              Millis.of(waited.requestNanos() - start),
              waited.entered() ? Millis.of(waited.enterNanos() - start) : -1.0,
              Millis.of(waited.returnNanos() - start)));

      run.check(recording, CapacityRule.atMost(1));
      assertThat(held.exitNanos())
          .as("the holder released while the waiter stood still")
          .isBetween(pausedAt, resumedAt);
      assertThat(waited.requestNanos())
          .as("the waiter asked before it was stopped")
          .isLessThan(pausedAt);
      // on the JPA store a JVM stopped inside one of its transactions (a renewal, a poll) holds
      // the limit's row locked until it runs again: the database keeps everyone else waiting, so
      // there the one behind may wait for the stopped JVM to wake, never longer
      long lapsed = held.exitNanos() + LEASE.plusSeconds(1).toNanos();
      boolean rowLocks = store.toString().startsWith("jpa");
      assertThat(firstBehind.enterNanos())
          .as(
              "the one behind waited for the stopped waiter's lapsed grant at most a lease + 1 s"
                  + (rowLocks ? ", or until 1 s after the stopped JVM woke" : ""))
          .isLessThan(rowLocks ? Math.max(lapsed, resumedAt + 1_000_000_000L) : lapsed);
      if (!rowLocks) {
        assertThat(firstBehind.enterNanos())
            .as("the one behind entered before the waiter woke")
            .isLessThan(resumedAt);
      }
      assertThat(waited.returnNanos() - waited.requestNanos())
          .as("the waiter's call ended within its waiting time and a second")
          .isLessThan(WAITING_TIME.plusSeconds(1).toNanos());
    }
  }
}
