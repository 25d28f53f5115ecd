package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.FencedSink;
import dev.bulwark.it.cluster.harness.FencedSink.Write;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.StoreUnderTest;
import dev.bulwark.it.cluster.harness.Waiting;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.harness.WorkerProcesses;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.FencingRule;
import dev.bulwark.it.cluster.history.LockExclusionRule;
import dev.bulwark.it.cluster.history.Millis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The way a lease-based lock fails, end to end: a holder of a write lock stops (SIGSTOP, as a long
 * GC pause or a frozen VM would stop it) while other JVMs queue for the key, then wakes and writes
 * again with its token. Each write goes to a {@link FencedSink}, which accepts a write only with a
 * token at least the last it accepted. The pause is drawn from a seed (printed; {@code
 * -Dnemesis.seed=S} replays it): past its lease (2.5 to 4 leases) or well inside it (100 to 250
 * ms).
 *
 * <p>Whatever the pause, no two holds' accepted writes interleave: a hold whose later write was
 * accepted saw no other hold's write accepted in between; a refused write is the holder's own,
 * which was told {@code LeaseLost}; every call ends well. Past the lease, another JVM took the key
 * with a higher token while the holder stood still, and the holder's late write was refused.
 */
@ExtendWith(KeptHistories.class)
class PausedHolderTest {

  private static final Duration LEASE = Duration.ofSeconds(1);
  private static final Duration LONGEST_PAUSE = LEASE.multipliedBy(4);

  /**
   * The holder's body lasts past the longest pause by longer than its renewer takes to renew (a
   * third of the lease): woken, it is told the lease was lost while its body still runs, as a
   * holder past the pause of a GC would be, and writes after that.
   */
  private static final Duration HOLD = LONGEST_PAUSE.plus(LEASE.multipliedBy(3).dividedBy(2));

  private static final long SEED = Long.getLong("nemesis.seed", System.nanoTime());

  private static final String KEY = "k0";

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.bulwark.it.cluster.harness.Stores#shared")
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aPausedHolderNeverWritesBesideTheNextOnePastItsLeaseItIsRefusedAndToldSo(
      StoreUnderTest store) throws Exception {
    SplittableRandom random = new SplittableRandom(SEED).split();
    for (int i = store.toString().hashCode() & 0xff; i > 0; i--) {
      random = random.split(); // a draw of its own per store, from the one seed
    }
    boolean pastTheLease = random.nextBoolean();
    Duration pause =
        pastTheLease
            ? Duration.ofMillis(random.nextLong(LEASE.toMillis() * 5 / 2, LONGEST_PAUSE.toMillis()))
            : Duration.ofMillis(random.nextLong(100, 250));
    try (ClusterRun run = new ClusterRun("paused-holder", store)) {
      run.report("nemesis seed " + SEED + " (-Dnemesis.seed=" + SEED + "): pause " + pause);
      Map<String, String> limits = new LinkedHashMap<>();
      limits.put("bulwark.lock." + GuardedOperations.LOCK + ".lease", LEASE.toMillis() + "ms");
      limits.put("bulwark.lock." + GuardedOperations.LOCK + ".waiting-time", "20s");
      List<String> lockCalls =
          WorkerOptions.args(
              "scenario", "lock", "keys", 1, "write-share", 1.0, "fenced-sink", true);
      List<String> holderArgs = new ArrayList<>(lockCalls);
      holderArgs.addAll(WorkerOptions.args("threads", 1, "calls", 1, "hold-min", HOLD.toMillis()));
      WorkerProcesses.Worker holder = run.worker("holder", limits, Map.of(), holderArgs);
      // they queue behind the holder, and take the key in turn once its lease lapsed
      List<String> contenderArgs = new ArrayList<>(lockCalls);
      contenderArgs.addAll(
          WorkerOptions.args("threads", 2, "calls", 3, "hold-min", 100, "start-delay", 1_000));
      run.worker("c1", limits, Map.of(), contenderArgs);
      run.worker("c2", limits, Map.of(), contenderArgs);
      run.startAll();

      FencedSink sink = run.sink();
      AtomicReference<Write> firstWrite = new AtomicReference<>();
      Waiting.until(
          () -> firstWrite.updateAndGet(w -> w != null ? w : firstWriteOf(sink, "holder")) != null,
          Duration.ofSeconds(30),
          "the holder wrote as it entered");
      Write first = firstWrite.get();
      holder.pause();
      long pausedAt = System.nanoTime();
      try {
        // the pause is the fault itself: nothing of the holder's runs while it lasts
        TimeUnit.NANOSECONDS.sleep(pause.toNanos());
      } finally {
        holder.resume();
      }
      long resumedAt = System.nanoTime();
      run.awaitAll(Duration.ofSeconds(60));

      Recording recording = run.recording();
      List<Write> writes = sink.writes();
      List<Write> refused = writes.stream().filter(w -> !w.accepted()).toList();
      List<Write> takenMeanwhile =
          writes.stream()
              .filter(Write::accepted)
              .filter(w -> !w.worker().equals("holder"))
              .filter(w -> w.nanos() > pausedAt && w.nanos() < resumedAt)
              .toList();
      String leaseLost = recording.info("holder", "lease-lost:1");
      CallRecord held = recording.calls(c -> c.worker().equals("holder")).get(0);
      run.report(
          String.format(
              "paused holder: token %d, paused %.0f ms on a %d ms lease; %d sink writes, %d refused"
                  + " %s; %d accepted from others during the pause; lease lost: %s; holder's call"
                  + " %s",
              first.token(),
              Millis.of(resumedAt - pausedAt),
              LEASE.toMillis(),
              writes.size(),
              refused.size(),
              refused,
              takenMeanwhile.size(),
              leaseLost,
              held.outcome()));

      assertThat(FencedSink.interleavedHolds(writes))
          .as("holds whose accepted writes enclose another hold's accepted write")
          .isEmpty();
      assertThat(refused)
          .as("refused writes: only the paused holder's, after it woke, and then it had been told")
          .allSatisfy(
              w -> {
                assertThat(w.worker()).isEqualTo("holder");
                assertThat(w.nanos()).isGreaterThan(resumedAt);
                assertThat(leaseLost).isNotNull();
              });
      assertThat(recording.calls())
          .as("every call")
          .hasSize(13)
          .allSatisfy(c -> assertThat(c.outcome()).isEqualTo(CallRecord.OK));
      if (pastTheLease) {
        assertThat(takenMeanwhile)
            .as("writes of another JVM accepted while the holder stood still (its lease lapsed)")
            .isNotEmpty()
            .allSatisfy(w -> assertThat(w.token()).isGreaterThan(first.token()));
        assertThat(refused)
            .as("the holder's write after it woke")
            .singleElement()
            .satisfies(
                w -> {
                  assertThat(w.token()).isEqualTo(first.token());
                  assertThat(w.phase()).isEqualTo("last");
                });
        assertThat(leaseLost).as("the holder was told its lease was lost").isNotNull();
      }
      run.check(
          recording.only(c -> !c.worker().equals("holder")),
          LockExclusionRule.writersAlone(),
          FencingRule.tokensGrowPerKey());
    }
  }

  private static Write firstWriteOf(FencedSink sink, String worker) {
    return sink.writes().stream()
        .filter(w -> w.worker().equals(worker) && w.key().equals(KEY))
        .findFirst()
        .orElse(null);
  }
}
