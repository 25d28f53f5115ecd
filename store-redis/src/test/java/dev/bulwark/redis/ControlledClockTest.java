package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The harness itself: scripts run under it see exactly the time the test set. */
@ExtendWith(RedisExtension.class)
class ControlledClockTest {

  @Test
  void aSmoothRateScriptComputesItsRetryAfterFromTheSetClock(TestRedis test) {
    ControlledClock clock = new ControlledClock(test);
    RedisKeys keys = test.keys();
    // value 1 per second: the second call at the same instant waits exactly one second
    List<String> smoothKeys = List.of(keys.rate("clocked", "smooth"));
    List<String> args = List.of("1", "1000000", "0");
    Object first = clock.run(Scripts.RATE_SMOOTH, smoothKeys, args);
    Object second = clock.run(Scripts.RATE_SMOOTH, smoothKeys, args);
    clock.advanceMillis(1000);
    Object third = clock.run(Scripts.RATE_SMOOTH, smoothKeys, args);

    assertThat(List.of(first, second, third)).isEqualTo(List.of(0L, -1_000_001L, 0L));
  }
}
