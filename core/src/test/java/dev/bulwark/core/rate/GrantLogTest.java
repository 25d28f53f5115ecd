package dev.bulwark.core.rate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The rolling log's storage: successive states share it, so a call does not copy the log. */
class GrantLogTest {

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long START = 1_000_000 * SECOND;

  @Test
  void aLargeRollingLimitCopiesItsLogOnlyWhenTheBufferFills() {
    int permits = 200_000;
    RateSpec spec = new RateSpec("large", RateLimitType.ROLLING, permits, SECOND);
    long spacing = SECOND / permits; // exactly the limit's rate: every call is granted
    int calls = 5 * permits;
    RollingWindowState state = (RollingWindowState) RateState.initial(spec.type());
    int copies = 0;
    int granted = 0;
    for (int i = 0; i < calls; i++) {
      ReservationOutcome outcome = state.reserve(spec, START + i * spacing, 0);
      RollingWindowState next = (RollingWindowState) outcome.next();
      if (outcome.decision().equals(RateDecision.NOW)) {
        granted++;
      }
      if (!next.grants().sharesStorageWith(state.grants())) {
        copies++;
      }
      state = next;
    }
    assertThat(granted).isEqualTo(calls);
    assertThat(state.grants().size()).isEqualTo(permits);
    // growing to 200 000 doubles about 15 times; after that one copy per ~200 000 calls. A log
    // copied on every call would count a million copies.
    assertThat(copies).isBetween(1, 25);
  }

  @Test
  void logsAppendedToFromOneLogByManyThreadsEachKeepTheirOwnTime() throws Exception {
    GrantLog base = GrantLog.of(LongStream.range(0, 1000).toArray());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<GrantLog>>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long time = 1000 + t;
        results.add(
            pool.submit(
                () -> {
                  List<GrantLog> logs = new ArrayList<>();
                  for (int i = 0; i < 500; i++) {
                    logs.add(base.append(time));
                  }
                  return logs;
                }));
      }
      for (int t = 0; t < 4; t++) {
        for (GrantLog log : results.get(t).get(30, TimeUnit.SECONDS)) {
          assertThat(log.size()).isEqualTo(1001);
          assertThat(log.get(999)).isEqualTo(999);
          assertThat(log.get(1000)).isEqualTo(1000 + t);
        }
      }
      assertThat(base.toArray()).isEqualTo(LongStream.range(0, 1000).toArray());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void droppingEveryTimeLeavesTheEmptyLogAndNoBuffer() {
    GrantLog log = GrantLog.of(new long[] {1, 2, 3});
    assertThat(log.withoutOldest(2).toArray()).containsExactly(3);
    assertThat(log.withoutOldest(3)).isSameAs(GrantLog.EMPTY);
    assertThat(log.withoutOldest(0)).isSameAs(log);
    assertThat(GrantLog.EMPTY.append(7).toArray()).containsExactly(7);
  }
}
