package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.FencedSink;
import dev.bulwark.it.cluster.harness.FencedSink.Write;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.JpaUnderTest;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.StoppableStore;
import dev.bulwark.it.cluster.harness.Stores;
import dev.bulwark.it.cluster.harness.Waiting;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.harness.WorkerProcesses;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.Millis;
import dev.bulwark.it.cluster.history.Violations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
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
 * Faults at random, judged by a witness. Three JVMs take write and read locks on three keys, every
 * writer writing through a {@link FencedSink} (kept in another Redis) as it enters and as its hold
 * ends, while a seeded nemesis stops, at random times and in random combinations, a worker JVM (100
 * ms to 3 s: shorter and longer than the 1 s lease) and the store (200 ms to 1.5 s: past the Redis
 * read timeout, and past the lease), one inside the other when it draws a combination. The store
 * stands still as a {@link StoppableStore}: a Redis of the test's own stopped with SIGSTOP, or
 * PostgreSQL and MariaDB behind a relay that holds every byte. The seed is printed; {@code
 * -Dnemesis.seed=S} replays its faults and {@code -Dnemesis.minutes=M} runs longer (20 s per store
 * in the default build).
 *
 * <p>The verdict: no two holds of a key wrote in one stretch (the sink's record); every refused
 * write was made by a JVM that was told its lease was lost or had expired at its release; every
 * call ended within its waiting time, the read timeout and a bound, plus the time its own JVM and
 * the server stood still during it; no worker failed.
 */
@ExtendWith(KeptHistories.class)
class NemesisTest {

  private static final long SEED = Long.getLong("nemesis.seed", System.nanoTime());
  private static final Duration RUN =
      Duration.ofMillis(
          (long) (Double.parseDouble(System.getProperty("nemesis.minutes", "0.34")) * 60_000));
  private static final Duration LEASE = Duration.ofSeconds(1);
  private static final Duration WAITING_TIME = Duration.ofSeconds(3);
  private static final Duration READ_TIMEOUT = Duration.ofMillis(500);

  /** Beyond the waiting time and the read timeout: a poll or a batch behind a timed-out one. */
  private static final Duration BOUND = Duration.ofSeconds(3);

  private static final int WORKERS = 3;

  private static final String STORE = "store";

  /** A fault: what stood still ({@code store} or a worker's name), from and to, in nanos. */
  private record Stop(String what, long from, long to) {}

  static Stream<Named<Function<Path, StoppableStore>>> stores() {
    return Stream.<Named<Function<Path, StoppableStore>>>of(
            Named.of("redis", StoppableStore::redis),
            Named.of("jpa-postgresql", dir -> StoppableStore.relayed(JpaUnderTest.postgresql())),
            Named.of("jpa-mariadb", dir -> StoppableStore.relayed(JpaUnderTest.mariadb())))
        .filter(store -> Stores.selected(store.getName()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  @Timeout(value = 4, unit = TimeUnit.HOURS) // each wait inside has its own, shorter bound
  void locksUnderRandomStopsOfWorkersAndTheStoreNeverLetTwoHoldsWriteInOneStretch(
      Function<Path, StoppableStore> stores) {
    SplittableRandom random = new SplittableRandom(SEED);
    Path dir = Path.of(System.getProperty("basedir", "."), "target", "nemesis-servers");
    try (StoppableStore server = stores.apply(dir);
        ClusterRun run =
            new ClusterRun("nemesis", server.store())
                .config("bulwark.failure-policy", "fail-closed")) {
      if (server.toString().equals("redis")) {
        run.config("bulwark.redis.read-timeout", READ_TIMEOUT.toMillis() + "ms");
      }
      run.report("nemesis seed " + SEED + " (-Dnemesis.seed=" + SEED + "), " + RUN);
      Map<String, String> limits =
          Map.of(
              "bulwark.lock." + GuardedOperations.LOCK + ".lease", LEASE.toMillis() + "ms",
              "bulwark.lock." + GuardedOperations.LOCK + ".waiting-time",
                  WAITING_TIME.toMillis() + "ms");
      List<WorkerProcesses.Worker> workers =
          run.workers(
              WORKERS,
              limits,
              WorkerOptions.args(
                  "scenario", "lock",
                  "threads", 3,
                  "keys", 3,
                  "write-share", 0.8,
                  "duration", RUN.toMillis(),
                  "calls", 1_000_000,
                  "hold-min", 20,
                  "hold-max", 300,
                  "pause-after-reject", 20,
                  "fenced-sink", true));
      long start = run.startAll();

      List<Stop> stops = new ArrayList<>();
      long lastFault = start + RUN.toNanos() - TimeUnit.SECONDS.toNanos(3);
      while (true) {
        long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(random.nextLong(300, 2_000));
        if (next > lastFault) {
          break;
        }
        Waiting.untilInstant(next);
        WorkerProcesses.Worker worker = workers.get(random.nextInt(workers.size()));
        long workerStop = TimeUnit.MILLISECONDS.toNanos(random.nextLong(100, 3_000));
        long serverStop = TimeUnit.MILLISECONDS.toNanos(random.nextLong(200, 1_500));
        switch (random.nextInt(3)) {
          case 0 -> stops.add(stop(worker.name(), workerStop, worker::pause, worker::resume));
          case 1 -> stops.add(stop(STORE, serverStop, server::stop, server::resume));
          default -> {
            // a combination: the server stops while the worker stands still, or the other way
            boolean workerOutside = random.nextBoolean();
            long inner = Math.min(workerStop, serverStop) / 2;
            long lead = TimeUnit.MILLISECONDS.toNanos(random.nextLong(0, 100));
            if (workerOutside) {
              stops.addAll(
                  nested(
                      worker.name(),
                      workerStop,
                      worker::pause,
                      worker::resume,
                      STORE,
                      inner,
                      lead,
                      server::stop,
                      server::resume));
            } else {
              stops.addAll(
                  nested(
                      STORE,
                      serverStop,
                      server::stop,
                      server::resume,
                      worker.name(),
                      inner,
                      lead,
                      worker::pause,
                      worker::resume));
            }
          }
        }
      }
      run.awaitAll(Duration.ofSeconds(90));

      Recording recording = run.recording();
      List<Write> writes = run.sink().writes();
      List<Write> refused = writes.stream().filter(w -> !w.accepted()).toList();
      List<CallRecord> calls = recording.calls();
      run.report(
          String.format(
              "nemesis: %d faults (%s), %d calls %s, %d sink writes, %d refused, lease lost or"
                  + " expired at release told %s times",
              stops.size(),
              stops.stream()
                  .map(
                      s ->
                          String.format(
                              "%s %.0f-%.0f ms",
                              s.what(), Millis.of(s.from() - start), Millis.of(s.to() - start)))
                  .collect(Collectors.joining(", ")),
              calls.size(),
              recording.outcomes(),
              writes.size(),
              refused.size(),
              workers.stream()
                  .collect(
                      Collectors.toMap(
                          WorkerProcesses.Worker::name,
                          w -> leaseNotices(recording, w.name()).size(),
                          (a, b) -> a,
                          LinkedHashMap::new))));

      assertThat(run.workers())
          .as("every worker ran to its end")
          .allSatisfy(w -> assertThat(w.failure()).isNull());
      assertThat(FencedSink.interleavedHolds(writes))
          .as("holds of a key whose accepted writes enclose another hold's accepted write")
          .isEmpty();
      assertThat(refused)
          .as("refused writes whose JVM was told its lease was lost, or expired at its release")
          .allSatisfy(
              w ->
                  assertThat(leaseNotices(recording, w.worker()))
                      .anySatisfy(
                          notice ->
                              assertThat(notice)
                                  .startsWith(GuardedOperations.LOCK + " " + w.key() + " ")));
      Violations.all(
          "every call ends within its waiting time, the read timeout and "
              + BOUND.toMillis()
              + " ms, plus what stood still during it",
          calls,
          c -> c.returnNanos() - c.requestNanos() <= allowed(c, stops, recording));
      assertThat(calls.stream().filter(CallRecord::completed).count())
          .as("calls that held their lock")
          .isPositive();
    }
  }

  /**
   * What a call may take: its waiting time, the read timeout and {@link #BOUND}, plus the time
   * during it that the server or its own JVM stood still — stopped by the nemesis, or stalled (the
   * JVM's threads not run: a loaded host can freeze every JVM for seconds) — counted once where
   * they overlap.
   */
  private static long allowed(CallRecord call, List<Stop> stops, Recording recording) {
    List<long[]> stoodStill = new ArrayList<>();
    for (Stop stop : stops) {
      if (stop.what().equals(STORE) || stop.what().equals(call.worker())) {
        stoodStill.add(new long[] {stop.from(), stop.to()});
      }
    }
    stoodStill.addAll(recording.stalls(call.worker()));
    stoodStill.sort(Comparator.comparingLong(interval -> interval[0]));
    long total = 0;
    long coveredTo = call.requestNanos();
    for (long[] interval : stoodStill) {
      long from = Math.max(interval[0], coveredTo);
      long to = Math.min(interval[1], call.returnNanos());
      if (to > from) {
        total += to - from;
        coveredTo = to;
      }
    }
    return WAITING_TIME.plus(READ_TIMEOUT).plus(BOUND).toNanos() + total;
  }

  /**
   * The {@code LeaseLost} and {@code LeaseExpiredAtRelease} notes of a worker: "limit key nanos".
   */
  private static List<String> leaseNotices(Recording recording, String worker) {
    return recording.infos(worker).entrySet().stream()
        .filter(
            e ->
                e.getKey().startsWith("lease-lost:")
                    || e.getKey().startsWith("lease-expired-at-release:"))
        .map(Map.Entry::getValue)
        .filter(notice -> notice.startsWith(GuardedOperations.LOCK + " "))
        .toList();
  }

  private static Stop stop(String what, long nanos, Runnable pause, Runnable resume) {
    pause.run();
    long from = System.nanoTime();
    try {
      Waiting.untilInstant(from + nanos);
    } finally {
      resume.run();
    }
    return new Stop(what, from, System.nanoTime());
  }

  /** {@code inner} stops {@code lead} after {@code outer}, for {@code innerNanos}, inside it. */
  private static List<Stop> nested(
      String outer,
      long outerNanos,
      Runnable outerPause,
      Runnable outerResume,
      String inner,
      long innerNanos,
      long lead,
      Runnable innerPause,
      Runnable innerResume) {
    outerPause.run();
    long from = System.nanoTime();
    Stop innerStop;
    try {
      Waiting.untilInstant(from + lead);
      innerStop = stop(inner, innerNanos, innerPause, innerResume);
      Waiting.untilInstant(from + outerNanos);
    } finally {
      outerResume.run();
    }
    return List.of(new Stop(outer, from, System.nanoTime()), innerStop);
  }
}
