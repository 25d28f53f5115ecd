package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.Concurrency;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.LiveCounters;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.RedisUnderTest;
import dev.bulwark.it.cluster.harness.Waiting;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.CapacityRule;
import dev.bulwark.it.cluster.history.FencingRule;
import dev.bulwark.it.cluster.history.HistoryRule;
import dev.bulwark.it.cluster.history.LockExclusionRule;
import dev.bulwark.it.cluster.history.Millis;
import dev.bulwark.it.support.LocalSentinelGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * A master, a replica and three Sentinels (real processes); a bulkhead of 4 used by 2 JVMs × 4
 * threads and a write lock on 2 keys used by a third JVM × 4 threads, every call holding 5–6 s and
 * failing fast when the limit is taken. Replication is cut just before the calls start, the master
 * is killed 1.5 s later, the Sentinels promote the replica and the old master comes back as its
 * replica. Every grant made before the kill exists only on the dead master.
 *
 * <p>With {@code wait-replicas=0} those grants are lost: their calls run on while the promoted
 * replica knows nothing of them and grants their permits again (measured: lost grants, overshoot).
 * With {@code wait-replicas=1} no grant is returned that the replica does not have, so none is
 * lost, the bulkhead never holds more than 4 and no two writers overlap; grants resume once a
 * replica acknowledges again and the permits of the unacknowledged grants ran out with their lease.
 */
@ExtendWith(KeptHistories.class)
class SentinelFailoverTest {

  private static final int VALUE = 4;

  /** Longer than the failover (about 2.5 s) plus a renewal period, so no live lease runs out. */
  private static final Duration LEASE = Duration.ofSeconds(8);

  private static final Duration DOWN_AFTER = Duration.ofMillis(1000);
  private static final Duration BULKHEAD_START = Duration.ofMillis(1500);
  private static final Duration KILL_AT = Duration.ofMillis(2500);
  private static final Duration RUN = Duration.ofSeconds(14);
  private static final List<String> LOCK_KEYS = List.of("k0", "k1");
  private static final Pattern LOST_LEASE = Pattern.compile("no longer holds");

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void withoutWaitReplicasGrantsMadeBeforeAFailoverAreLost() {
    Outcome outcome = runFailover(0);
    assertThat(outcome.insideAtKill).as("calls holding a grant when the master died").isPositive();
    assertThat(outcome.lostGrants())
        .as("grants the promoted replica did not have (the scenario loses writes)")
        .isPositive();
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void withWaitReplicasNoGrantIsLostAndNoLimitIsExceeded() {
    Outcome outcome = runFailover(1);
    assertThat(outcome.replicaHeld)
        .as("writers granted before the cut, on the promoted replica")
        .isEqualTo(LOCK_KEYS.size());
    assertThat(outcome.lostGrants()).as("grants lost in the failover").isZero();
    assertThat(outcome.lostLeases).as("leases the JVMs found gone").isZero();
    assertThat(outcome.counterMax).as("most inside, live counter").isLessThanOrEqualTo(VALUE);
    assertThat(outcome.lockViolations).as("violations seen by the live counters").isZero();
    assertThat(outcome.grantedAfterRejoin)
        .as("calls granted once a replica acknowledged again")
        .isPositive();
  }

  private record Outcome(
      int insideAtKill,
      long replicaHeld,
      int maxInside,
      long counterMax,
      List<String> overlaps,
      long lockViolations,
      long lostLeases,
      long grantedAfterRejoin) {
    long lostGrants() {
      return insideAtKill - replicaHeld;
    }
  }

  private Outcome runFailover(int waitReplicas) {
    try (LocalSentinelGroup group = LocalSentinelGroup.start(DOWN_AFTER);
        ClusterRun run =
            new ClusterRun(
                "sentinel-failover-wait" + waitReplicas,
                RedisUnderTest.sentinel(LocalSentinelGroup.MASTER_NAME, group.sentinelNodes()))) {
      run.config("bulwark.redis.wait-replicas", String.valueOf(waitReplicas))
          // long enough for a loaded machine: only the cut may make a grant fall short
          .config("bulwark.redis.wait-replicas-timeout", "1s");
      List<Object> timing =
          List.of(
              "threads",
              4,
              "duration",
              RUN.toMillis(),
              "hold-min",
              5000,
              "hold-max",
              6000,
              "pause-after-reject",
              50);
      Map<String, String> bulkheadLimits =
          Map.of(
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value",
              String.valueOf(VALUE),
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
              "0",
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".lease",
              LEASE.toMillis() + "ms");
      for (int i = 0; i < 2; i++) {
        run.worker(
            "b" + i,
            bulkheadLimits,
            Map.of(),
            args("scenario", "bulkhead", timing, "start-delay", BULKHEAD_START.toMillis()));
      }
      run.worker(
          "lock",
          Map.of(
              "bulwark.lock." + GuardedOperations.LOCK + ".waiting-time",
              "0",
              "bulwark.lock." + GuardedOperations.LOCK + ".lease",
              LEASE.toMillis() + "ms"),
          Map.of(),
          args("scenario", "lock", timing, "keys", LOCK_KEYS.size(), "write-share", 1.0));
      long start = run.startAll();
      LiveCounters counters = run.counters();
      Waiting.until(
          () -> LOCK_KEYS.stream().mapToLong(counters::writers).sum() == LOCK_KEYS.size(),
          BULKHEAD_START.minusMillis(200).plus(Duration.ofNanos(start - System.nanoTime())),
          "a writer holds each lock key before the bulkhead's calls start");
      group.cutReplication();

      Waiting.untilInstant(start + KILL_AT.toNanos());
      group.killMaster();
      long killed = System.nanoTime();
      long replicaHeld = heldOnReplica(group, run.storeSetting(RedisUnderTest.KEY_PREFIX));
      long promoted = group.awaitReplicaPromoted(Duration.ofSeconds(30));
      group.restartOldMasterAsReplica(Duration.ofSeconds(30));
      long rejoined = System.nanoTime();
      run.awaitAll(Duration.ofSeconds(60));

      Recording recording = run.recording();
      List<CallRecord> bulkhead = recording.calls(c -> "BULKHEAD".equals(c.kind()));
      List<CallRecord> writes = recording.calls(c -> "WRITE".equals(c.kind()));
      int insideAtKill =
          (int)
              recording.entered().stream()
                  .filter(c -> c.enterNanos() < killed)
                  .filter(c -> c.exitNanos() == 0 || c.exitNanos() > killed)
                  .count();
      Concurrency inside = Concurrency.of(bulkhead);
      List<String> overlaps = overlaps(writes);
      long lostLeases =
          run.workers().stream().mapToLong(w -> count(LOST_LEASE.matcher(w.stderrText()))).sum();
      long grantedAfterRejoin =
          recording.entered().stream().filter(c -> c.enterNanos() > rejoined).count();
      Outcome outcome =
          new Outcome(
              insideAtKill,
              replicaHeld,
              inside.max(),
              run.counters().maxInside(),
              overlaps,
              run.counters().lockViolations(),
              lostLeases,
              grantedAfterRejoin);
      run.report(
          String.format(
              "sentinel failover, wait-replicas=%d: bulkhead outcomes %s, lock outcomes %s;"
                  + " calls inside at the kill %d, of which on the replica %d (lost grants %d);"
                  + " leases the JVMs found gone %d; bulkhead max inside %d / live counter %d"
                  + " (limit %d, overshoot %d); writer overlaps %d, lock counter violations %d;"
                  + " replica promoted %.0f ms after the kill, old master back as replica"
                  + " %.0f ms after it; calls granted after that %d",
              waitReplicas,
              outcomes(bulkhead),
              outcomes(writes),
              insideAtKill,
              replicaHeld,
              outcome.lostGrants(),
              lostLeases,
              inside.max(),
              outcome.counterMax(),
              VALUE,
              Math.max(0, Math.max(inside.max(), outcome.counterMax()) - VALUE),
              overlaps.size(),
              outcome.lockViolations(),
              Millis.of(promoted - killed),
              Millis.of(rejoined - promoted),
              grantedAfterRejoin));
      // what replication promises: with wait-replicas=1 the history keeps every rule; with 0 the
      // same rules measure what the failover broke
      HistoryRule[] rules = {
        CapacityRule.atMost(VALUE), LockExclusionRule.writersAlone(), FencingRule.tokensGrowPerKey()
      };
      if (waitReplicas > 0) {
        run.check(recording, rules);
      } else {
        run.judge(recording, rules);
      }
      return outcome;
    }
  }

  /**
   * The grants the replica has at the moment the master died (it is promoted with exactly these):
   * bulkhead holders and lock writers under the run's prefix.
   */
  private static long heldOnReplica(LocalSentinelGroup group, String prefix) {
    long held = 0;
    try (Jedis replica = group.replica().connect()) {
      ScanParams match = new ScanParams().match(prefix + "*").count(1000);
      String cursor = ScanParams.SCAN_POINTER_START;
      do {
        ScanResult<String> page = replica.scan(cursor, match);
        for (String key : page.getResult()) {
          if (key.contains("{b:" + GuardedOperations.BULKHEAD + "}:holders")) {
            held += replica.zcard(key);
          } else if (key.contains("{l:" + GuardedOperations.LOCK + ":")
              && key.endsWith(":state")
              && replica.hget(key, "writer") != null) {
            held++;
          }
        }
        cursor = page.getCursor();
      } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
    }
    return held;
  }

  private static List<String> overlaps(List<CallRecord> writes) {
    List<String> found = new ArrayList<>();
    List<CallRecord> entered = writes.stream().filter(CallRecord::entered).toList();
    for (int i = 0; i < entered.size(); i++) {
      for (int j = i + 1; j < entered.size(); j++) {
        CallRecord a = entered.get(i);
        CallRecord b = entered.get(j);
        long aEnd = a.exitNanos() == 0 ? Long.MAX_VALUE : a.exitNanos();
        long bEnd = b.exitNanos() == 0 ? Long.MAX_VALUE : b.exitNanos();
        if (a.key().equals(b.key()) && a.enterNanos() < bEnd && b.enterNanos() < aEnd) {
          found.add(a + " overlaps " + b);
        }
      }
    }
    return found;
  }

  private static Map<String, Long> outcomes(List<CallRecord> calls) {
    Map<String, Long> counts = new java.util.LinkedHashMap<>();
    calls.forEach(c -> counts.merge(c.outcome(), 1L, Long::sum));
    return counts;
  }

  private static long count(Matcher matcher) {
    long n = 0;
    while (matcher.find()) {
      n++;
    }
    return n;
  }

  private static List<String> args(Object... namesAndValues) {
    List<Object> flat = new ArrayList<>();
    for (Object value : namesAndValues) {
      if (value instanceof List<?> list) {
        flat.addAll(list);
      } else {
        flat.add(value);
      }
    }
    return WorkerOptions.args(flat.toArray());
  }
}
