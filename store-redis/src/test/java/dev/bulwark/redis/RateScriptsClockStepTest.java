package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.spi.RateDecision;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * A server clock that steps back (a failover to a replica whose clock lags) must not move a rate
 * limit's state backwards: the rolling log stays ascending, a grant is never answered with a reply
 * that reads as a rejection, and the fixed window never goes back (unless it lies so far ahead that
 * it was numbered under a shorter window).
 */
@ExtendWith(RedisExtension.class)
class RateScriptsClockStepTest {

  private static final long SECOND = 1_000_000; // micros
  private static final long MS = 1_000_000; // nanos
  private static final long T = 1_700_000_000_000_000L; // micros, a whole number of seconds

  private TestRedis test;
  private RedisClient redis;
  private ControlledClock clock;

  @BeforeEach
  void open(TestRedis test) {
    this.test = test;
    this.redis = test.redis();
    this.clock = new ControlledClock(test);
  }

  @Test
  void theRollingLogStaysAscending() {
    String key = test.keys().rate("stepped", "rolling");
    Rolling rolling = new Rolling(key, 3, SECOND);

    assertThat(rolling.reserve(T + 10 * SECOND, 0)).isEqualTo(RateDecision.NOW);
    // the clock steps back 5 s: it counts as if it stood still at the newest grant
    for (int i = 0; i < 2; i++) {
      assertThat(rolling.reserve(T + 5 * SECOND, 0)).isEqualTo(RateDecision.NOW);
      assertThat(log(key)).as("the log after a step back").isSorted();
    }
    // full: the reserved slot lies one window after the oldest grant, 1 s after the clamped now
    assertThat(rolling.reserve(T + 5 * SECOND, 10 * SECOND))
        .isEqualTo(RateDecision.grantedAfter(1000 * MS));
    assertThat(log(key))
        .containsExactly(T + 10 * SECOND, T + 10 * SECOND, T + 10 * SECOND, T + 11 * SECOND);
  }

  @Test
  void aGrantIsNeverAnsweredWithAReplyThatReadsAsARejection() {
    String key = test.keys().rate("stepped", "rolling");
    Rolling rolling = new Rolling(key, 3, SECOND);

    rolling.reserve(T + 10 * SECOND, 0);
    rolling.reserve(T + 5 * SECOND, 0);
    rolling.reserve(T + 5 * SECOND, 0);
    rolling.reserve(T + 5 * SECOND, 10 * SECOND);
    // caught up: half a window after the three grants, the next slot is the reserved one's
    assertThat(rolling.reserve(T + 10 * SECOND + SECOND / 2, 0))
        .isEqualTo(RateDecision.rejected(500 * MS));
    assertThat(rolling.reserve(T + 11 * SECOND, 0)).isEqualTo(RateDecision.NOW);
    assertThat(log(key)).containsExactly(T + 11 * SECOND, T + 11 * SECOND);
  }

  @Test
  void theFixedWindowNeverGoesBack() {
    String key = test.keys().rate("stepped", "fixed");
    List<String> keys = List.of(key);
    clock.set(T + 10 * SECOND + SECOND / 5);
    for (int i = 0; i < 2; i++) {
      assertThat(decision(Scripts.RATE_FIXED, keys, "2", SECOND, 0)).isEqualTo(RateDecision.NOW);
    }
    String window = redis.hget(key, "window");
    // 1.7 s earlier, in an earlier window: still the stored window, full until its end
    clock.set(T + 8 * SECOND + SECOND / 2);
    assertThat(decision(Scripts.RATE_FIXED, keys, "2", SECOND, 0))
        .isEqualTo(RateDecision.rejected(1000 * MS));
    assertThat(decision(Scripts.RATE_FIXED, keys, "2", SECOND, 2 * SECOND))
        .isEqualTo(RateDecision.grantedAfter(1000 * MS));
    assertThat(redis.hget(key, "window")).isEqualTo(window);
    assertThat(redis.hget(key, "count")).isEqualTo("3");
  }

  @Test
  void aFixedWindowNumberedInShorterWindowsIsNoLaggingClockItStartsAfresh() {
    String key = test.keys().rate("redefined", "fixed");
    List<String> keys = List.of(key);
    clock.set(T + SECOND / 5);
    for (int i = 0; i < 2; i++) {
      assertThat(decision(Scripts.RATE_FIXED, keys, "2", SECOND, 0)).isEqualTo(RateDecision.NOW);
    }
    // the window lengthened to a minute: window T / 1 s, read in minutes, lies decades ahead
    clock.set(T + SECOND / 2);
    for (int i = 0; i < 2; i++) {
      assertThat(decision(Scripts.RATE_FIXED, keys, "2", 60 * SECOND, 0))
          .isEqualTo(RateDecision.NOW);
    }
    long minute = (T + SECOND / 2) / (60 * SECOND);
    assertThat(decision(Scripts.RATE_FIXED, keys, "2", 60 * SECOND, 0))
        .isEqualTo(RateDecision.rejected(((minute + 1) * 60 * SECOND - T - SECOND / 2) * 1000));
    assertThat(redis.hget(key, "window")).isEqualTo(Long.toString(minute));
  }

  @Test
  void aFixedWindowADayAheadIsStillALaggingClock() {
    String key = test.keys().rate("lagging", "fixed");
    List<String> keys = List.of(key);
    clock.set(T + 86_400 * SECOND);
    assertThat(decision(Scripts.RATE_FIXED, keys, "1", SECOND, 0)).isEqualTo(RateDecision.NOW);
    clock.set(T + SECOND);
    assertThat(decision(Scripts.RATE_FIXED, keys, "1", SECOND, 0))
        .isEqualTo(RateDecision.rejected(1000 * MS));
  }

  @Test
  void theSmoothArrivalTimeNeverGoesBack() {
    String key = test.keys().rate("stepped", "smooth");
    List<String> keys = List.of(key);
    clock.set(T + 10 * SECOND);
    for (int i = 0; i < 5; i++) {
      assertThat(decision(Scripts.RATE_SMOOTH, keys, "5", SECOND, 0)).isEqualTo(RateDecision.NOW);
    }
    assertThat(redis.get(key)).isEqualTo(Long.toString(T + 11 * SECOND));
    clock.set(T + 9 * SECOND);
    assertThat(decision(Scripts.RATE_SMOOTH, keys, "5", SECOND, 0))
        .isEqualTo(RateDecision.rejected(1200 * MS));
    assertThat(decision(Scripts.RATE_SMOOTH, keys, "5", SECOND, 2 * SECOND))
        .isEqualTo(RateDecision.grantedAfter(1200 * MS));
    assertThat(redis.get(key)).isEqualTo(Long.toString(T + 11 * SECOND + SECOND / 5));
  }

  private RateDecision decision(
      LuaScript script, List<String> keys, String permits, long windowMicros, long maxWaitMicros) {
    long reply =
        (Long)
            clock.run(
                script,
                keys,
                List.of(permits, Long.toString(windowMicros), Long.toString(maxWaitMicros)));
    return RedisRates.decision(reply);
  }

  private List<Long> log(String key) {
    return redis.lrange(key, 0, -1).stream().map(Long::parseLong).toList();
  }

  /** The rolling script, checking that each call's reply says whether it recorded a grant. */
  private final class Rolling {

    private final String key;
    private final String permits;
    private final long windowMicros;

    Rolling(String key, int permits, long windowMicros) {
      this.key = key;
      this.permits = Integer.toString(permits);
      this.windowMicros = windowMicros;
    }

    RateDecision reserve(long micros, long maxWaitMicros) {
      List<Long> logBefore = log(key);
      clock.set(micros);
      RateDecision decision =
          decision(Scripts.RATE_ROLLING, List.of(key), permits, windowMicros, maxWaitMicros);
      List<Long> logAfter = log(key);
      // a rejection only drops expired times: what is left is the end of the log before
      boolean recorded =
          logAfter.size() > logBefore.size()
              || !logAfter.equals(
                  logBefore.subList(logBefore.size() - logAfter.size(), logBefore.size()));
      assertThat(decision.granted())
          .as(
              "the reply %s to a call that %s a grant",
              decision, recorded ? "recorded" : "recorded no")
          .isEqualTo(recorded);
      return decision;
    }
  }
}
