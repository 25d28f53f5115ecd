package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.Concurrency;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.RedisUnderTest;
import dev.bulwark.it.cluster.harness.Waiting;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.CapacityRule;
import dev.bulwark.it.cluster.history.Millis;
import dev.bulwark.it.cluster.history.Violations;
import dev.bulwark.it.support.LocalRedisCluster;
import dev.bulwark.it.support.RedisServerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster of 3 primaries and 3 replicas under a bulkhead of 4 shared by 3 JVMs × 6 threads:
 * mid-run the primary of the bulkhead's slot fails over to its replica ({@code CLUSTER FAILOVER}),
 * later the slot moves to another primary with its keys. Checked: every JVM subscribes to its
 * wake-up channel on the promoted replica and drops the demoted primary (the subscriptions follow
 * the topology), the limit is never exceeded, every call completes (redirected, never failed), and
 * after each change calls go on with hand-overs woken by pub/sub again (wake-up lag per phase
 * reported). Grants wait for one replica ({@code wait-replicas=1}), so each {@code WAIT} must reach
 * the slot's primary of the moment through the failover and the move. A coordinated failover loses
 * no write; what a crash loses is measured on Sentinel.
 */
@ExtendWith(KeptHistories.class)
class RedisClusterFailoverTest {

  private static final int VALUE = 4;
  private static final int WORKERS = 3;
  private static final int THREADS = 6;
  private static final Duration RUN = Duration.ofSeconds(16);
  private static final Duration FAILOVER_AT = Duration.ofSeconds(4);

  /** How long after a change the measured phase starts: waiters queued across it settle first. */
  private static final Duration SETTLE = Duration.ofMillis(500);

  /** A JVM looks up the primaries once per reconnect interval (1 s); this leaves a margin. */
  private static final Duration FOLLOW_TIMEOUT = Duration.ofSeconds(10);

  /** Far below the waiters' poll (500 ms): hand-overs still reach them by pub/sub. */
  private static final Duration PUB_SUB_LAG = Duration.ofMillis(100);

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void subscriptionsFollowAFailoverAndASlotMoveAndTheLimitHolds() {
    try (LocalRedisCluster cluster = LocalRedisCluster.start(3, 1, Duration.ofMillis(2000));
        ClusterRun run =
            new ClusterRun("cluster-failover", RedisUnderTest.cluster(cluster.nodeList()))) {
      // grants wait for the replica of their slot's primary: the WAIT must follow the slot too
      // (a generous timeout: a grant that falls short holds its permit for a lease, and that is not
      // what this test is about)
      run.config("bulwark.redis.wait-replicas", "1")
          .config("bulwark.redis.wait-replicas-timeout", "2s");
      int slot = JedisClusterCRC16.getSlot("{b:" + GuardedOperations.BULKHEAD + "}");
      String channels = run.storeSetting(RedisUnderTest.KEY_PREFIX) + "wake:*";
      Map<String, String> limits =
          Map.of(
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".value",
              String.valueOf(VALUE),
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".waiting-time",
              "20s",
              "bulwark.bulkhead." + GuardedOperations.BULKHEAD + ".lease",
              "15s");
      run.workers(
          WORKERS,
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
              50,
              "pause-after-reject",
              20));
      long start = run.startAll();
      RedisServerProcess first = cluster.primaryOf(slot);
      Waiting.until(
          () -> subscribers(first, channels) == WORKERS,
          FOLLOW_TIMEOUT,
          "every JVM subscribed on the slot's primary");

      Waiting.untilInstant(start + FAILOVER_AT.toNanos());
      long failoverBegin = System.nanoTime();
      RedisServerProcess promoted = cluster.failOver(slot);
      long failedOver = System.nanoTime();
      Waiting.until(
          () -> subscribers(promoted, channels) == WORKERS,
          FOLLOW_TIMEOUT,
          "every JVM subscribed on the promoted replica " + promoted.port());
      long followed = System.nanoTime();
      Waiting.until(
          () -> subscribers(first, channels) == 0,
          FOLLOW_TIMEOUT,
          "every JVM unsubscribed from the demoted primary " + first.port());

      Waiting.untilInstant(followed + Duration.ofSeconds(4).toNanos());
      RedisServerProcess target =
          cluster.primaries().stream()
              .filter(p -> p.port() != promoted.port())
              .findFirst()
              .orElseThrow();
      long moveBegin = System.nanoTime();
      cluster.moveSlot(slot, target);
      long moved = System.nanoTime();
      run.awaitAll(Duration.ofSeconds(60));

      Recording recording = run.recording();
      List<CallRecord> calls = recording.calls();
      Concurrency inside = Concurrency.of(calls);
      long end = start + RUN.toNanos();
      long[] before = lags(calls, start + SETTLE.toNanos(), failoverBegin);
      long[] afterFailover = lags(calls, followed + SETTLE.toNanos(), moveBegin);
      long[] afterMove = lags(calls, moved + SETTLE.toNanos(), end);
      run.report(
          String.format(
              "cluster failover: %d calls, outcomes %s, max inside %d / live counter %d (limit"
                  + " %d); failover %.0f ms, every JVM subscribed on the new primary %.0f ms after"
                  + " it; slot move %.0f ms; wake-up lag median/p90/max ms (waiters) before %s,"
                  + " after the failover %s, after the slot move %s",
              calls.size(),
              recording.outcomes(),
              inside.max(),
              run.counters().maxInside(),
              VALUE,
              Millis.of(failedOver - failoverBegin),
              Millis.of(followed - failedOver),
              Millis.of(moved - moveBegin),
              summary(before),
              summary(afterFailover),
              summary(afterMove)));

      run.check(recording, CapacityRule.atMost(VALUE));
      assertThat(run.counters().maxInside())
          .as("most inside at once, live counter")
          .isLessThanOrEqualTo(VALUE);
      assertThat(inside.max()).as("the bulkhead was full").isEqualTo(VALUE);
      for (long[] phase : List.of(before, afterFailover, afterMove)) {
        assertThat(phase.length).as("waiters woken in each phase").isGreaterThan(20);
        assertThat(Duration.ofNanos(phase[phase.length / 2]))
            .as("median wake-up lag of a phase: hand-overs arrive by pub/sub, not by the poll")
            .isLessThan(PUB_SUB_LAG);
      }
      // a coordinated failover and a slot move redirect calls (MOVED, ASK), they never fail them
      Violations.all("every call completed", calls, CallRecord::completed);
    }
  }

  /** How many wake-up channels of the run {@code node} has subscribers for. */
  private static long subscribers(RedisServerProcess node, String pattern) {
    try (Jedis jedis = node.connect()) {
      return jedis.pubsubChannels(pattern).size();
    }
  }

  /**
   * For each call that waited and entered within [from, to]: the time from the last exit before its
   * entry to the entry, sorted. On a full bulkhead that is the hand-over's wake-up latency.
   */
  private static long[] lags(List<CallRecord> calls, long from, long to) {
    long[] exits =
        calls.stream()
            .filter(CallRecord::entered)
            .mapToLong(CallRecord::exitNanos)
            .filter(e -> e != 0)
            .sorted()
            .toArray();
    List<Long> lags = new ArrayList<>();
    for (CallRecord call : calls) {
      boolean waited =
          call.entered()
              && call.enterNanos() - call.requestNanos() > FairBulkheadScenario.WAITED.toNanos();
      if (!waited || call.enterNanos() < from || call.enterNanos() > to) {
        continue;
      }
      int index = Arrays.binarySearch(exits, call.enterNanos());
      int last = index >= 0 ? index : -index - 2;
      if (last >= 0) {
        lags.add(call.enterNanos() - exits[last]);
      }
    }
    return lags.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  private static String summary(long[] lags) {
    if (lags.length == 0) {
      return "(none)";
    }
    return String.format(
        "%.1f/%.1f/%.1f (%d)",
        Millis.of(lags[lags.length / 2]),
        Millis.of(lags[lags.length * 9 / 10]),
        Millis.of(lags[lags.length - 1]),
        lags.length);
  }
}
