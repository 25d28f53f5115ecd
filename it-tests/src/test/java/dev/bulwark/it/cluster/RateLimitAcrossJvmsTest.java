package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.GuardedOperations;
import dev.bulwark.it.cluster.harness.JpaUnderTest;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.LibFaketime;
import dev.bulwark.it.cluster.harness.Recording;
import dev.bulwark.it.cluster.harness.RedisUnderTest;
import dev.bulwark.it.cluster.harness.StoreUnderTest;
import dev.bulwark.it.cluster.harness.Stores;
import dev.bulwark.it.cluster.harness.WorkerOptions;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.RateRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A SMOOTH rate limit of 50/s shared by four JVMs that try as fast as they can for 10 s (waiting
 * time 0), one of them with its wall clock jumping ten minutes ahead (libfaketime, from 10 s after
 * that JVM's start on). The store decides on its server's clock (Redis {@code TIME}, the
 * database's), so the grants must follow the limit as if no clock were skewed: burst + 50 ×
 * elapsed, within 2 %. Run on every store.
 */
@ExtendWith(KeptHistories.class)
class RateLimitAcrossJvmsTest {

  private static final int PER_SECOND = 50;
  private static final int BURST = PER_SECOND;
  private static final int WORKERS = 4;
  private static final String SKEWED = "w3";
  private static final long SHIFT_MILLIS = TimeUnit.MINUTES.toMillis(10);
  private static final double TOLERANCE = 0.02;
  private static final Duration SHIFT_AFTER = Duration.ofSeconds(10);

  static Stream<StoreUnderTest> redis() {
    return Stores.shared().filter(RedisUnderTest.class::isInstance);
  }

  static Stream<StoreUnderTest> jpa() {
    return Stores.shared().filter(JpaUnderTest.class::isInstance);
  }

  // none when -Dbulwark-it.stores names no Redis store
  @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
  @MethodSource("redis")
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void grantsFollowTheLimitWithOneJvmClockTenMinutesAhead(StoreUnderTest store) {
    runAndCheck(store);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jpa")
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void grantsFollowTheLimitWithOneJvmClockTenMinutesAheadOnTheJpaStore(StoreUnderTest store) {
    runAndCheck(store);
  }

  private static void runAndCheck(StoreUnderTest store) {
    // shifted from 10 s after the JVM's start: mostly past its boot, and always before the end of
    // its 10 s run
    Map<String, String> skewedClock = LibFaketime.shiftedBy("+10m", SHIFT_AFTER);
    try (ClusterRun run = new ClusterRun("rate", store)) {
      Map<String, String> limits =
          Map.of(
              "bulwark.rate-limit." + GuardedOperations.RATE_LIMIT + ".value",
              String.valueOf(PER_SECOND),
              "bulwark.rate-limit." + GuardedOperations.RATE_LIMIT + ".window",
              "1s",
              "bulwark.rate-limit." + GuardedOperations.RATE_LIMIT + ".type",
              "smooth",
              "bulwark.rate-limit." + GuardedOperations.RATE_LIMIT + ".waiting-time",
              "0");
      List<String> names = new ArrayList<>();
      for (int i = 0; i < WORKERS; i++) {
        String name = "w" + i;
        names.add(name);
        run.worker(
            name,
            limits,
            name.equals(SKEWED) ? skewedClock : Map.of(),
            WorkerOptions.args(
                "scenario",
                "rate",
                "threads",
                2,
                "duration",
                10_000,
                // tens of thousands of rejections: counted, not written one by one
                "record-rejections",
                false));
      }
      // the test's own wall clock and monotonic clock, read together
      long parentWall = System.currentTimeMillis();
      long parentNanos = System.nanoTime();
      run.startAll();
      run.awaitAll(Duration.ofSeconds(40));

      Recording recording = run.recording();
      Map<String, Long> shifts = new LinkedHashMap<>();
      for (String name : names) {
        String[] clock = recording.info(name, "clock-at-end").split(" ");
        long childWall = Long.parseLong(clock[0]);
        long childNanos = Long.parseLong(clock[1]);
        long parentWallThen = parentWall + (childNanos - parentNanos) / 1_000_000;
        shifts.put(name, childWall - parentWallThen);
      }
      List<CallRecord> grants = recording.calls(CallRecord::completed);
      long first = grants.stream().mapToLong(CallRecord::enterNanos).min().orElseThrow();
      long last = grants.stream().mapToLong(CallRecord::enterNanos).max().orElseThrow();
      double elapsedSeconds = (last - first) / 1e9;
      double expected = BURST + PER_SECOND * elapsedSeconds;
      double error = (grants.size() - expected) / expected;
      // The formula assumes the burst is taken at the first grant. When the callers start slowly
      // (JVMs still busy on a loaded host) the full bucket drops the refill it cannot hold, so
      // the whole-run count may fall short without the limit being at fault. After the first
      // second the bucket is empty and every slot is taken: the steady rate must match on its own.
      long steadyFrom = first + TimeUnit.SECONDS.toNanos(1);
      long steadyGrants = grants.stream().filter(g -> g.enterNanos() > steadyFrom).count();
      double steadySeconds = (last - steadyFrom) / 1e9;
      double steadyError =
          (steadyGrants - PER_SECOND * steadySeconds) / (PER_SECOND * steadySeconds);
      long rejected = recording.countedRejections("RateLimitExceededException");
      Map<String, Long> perWorker = new LinkedHashMap<>();
      grants.forEach(g -> perWorker.merge(g.worker(), 1L, Long::sum));
      run.report(
          String.format(
              "rate: %d granted over %.3f s (first to last grant), expected %.1f = %d + %d/s ×"
                  + " elapsed, error %+.2f %% (tolerance ±%.0f %%); after the first second %d"
                  + " granted over %.3f s, error %+.2f %% vs 50/s; %d rejected, grants per JVM"
                  + " %s, wall clock shift per JVM vs the test (ms) %s",
              grants.size(),
              elapsedSeconds,
              expected,
              BURST,
              PER_SECOND,
              error * 100,
              TOLERANCE * 100,
              steadyGrants,
              steadySeconds,
              steadyError * 100,
              rejected,
              perWorker,
              shifts));

      // no interval of the run, however short, saw more grants than the limit allows
      run.check(recording, RateRule.atMost(BURST, PER_SECOND));
      assertThat(shifts.get(SKEWED))
          .as("the skewed JVM's wall clock shift (libfaketime took effect)")
          .isBetween(SHIFT_MILLIS - 2000, SHIFT_MILLIS + 2000);
      shifts.forEach(
          (name, shift) -> {
            if (!name.equals(SKEWED)) {
              assertThat(Math.abs(shift)).as(name + "'s wall clock shift").isLessThan(1000);
            }
          });
      assertThat(elapsedSeconds).as("seconds from first to last grant").isGreaterThan(9);
      // never more than the limit allows, however the callers behaved
      assertThat(error).as("relative error of the granted count").isLessThanOrEqualTo(TOLERANCE);
      // and, once the burst is spent, exactly the limit's rate
      assertThat(Math.abs(steadyError))
          .as("relative error of the steady rate after the first second")
          .isLessThanOrEqualTo(TOLERANCE);
      assertThat(rejected).as("rejections: callers asked faster than the limit").isPositive();
      assertThat(perWorker).as("every JVM, the skewed one too, got permits").hasSize(WORKERS);
      assertThat(recording.outcomes().keySet()).as("outcomes recorded").containsOnly(CallRecord.OK);
    }
  }
}
