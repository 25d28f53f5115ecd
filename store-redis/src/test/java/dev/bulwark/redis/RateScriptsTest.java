package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * The rate-limit scripts (rate_smooth, rate_fixed, rate_rolling) against a real Redis.
 *
 * <p>The scripts read the server's clock (Redis TIME), which the test cannot see at the instant a
 * script runs. The assertions therefore bound it: a script's "now" lies between a TIME read just
 * before the call and one just after it, and the server time that passes between two calls is at
 * most the client time measured around both (one clock rate, one machine or NTP-disciplined). So
 * each tolerance is the measured round trip, not a guess.
 */
@ExtendWith(RedisExtension.class)
class RateScriptsTest {

  private static final long MS = 1_000_000L;
  private static final long US = 1_000L;

  private TestRedis test;
  private RedisClient redis;
  private RateStore rates;

  @BeforeEach
  void open(TestRedis test) {
    this.test = test;
    this.redis = test.redis();
    this.rates = test.open().store().rates();
  }

  @Test
  void smoothAdmitsABurstOfPermitsThenSaysRetryAfterOneInterval() {
    // a long interval, so that a loaded machine's pauses stay far below the margins
    RateSpec spec = new RateSpec("smooth", RateLimitType.SMOOTH, 5, 5_000 * MS);
    long interval = spec.emissionIntervalNanos(); // 1 s

    long start = System.nanoTime();
    for (int i = 0; i < 5; i++) {
      assertThat(rates.reserve(spec, 0))
          .as("permit %s of the burst", i)
          .isEqualTo(RateDecision.NOW);
    }
    RateDecision sixth = rates.reserve(spec, 0);
    long elapsed = System.nanoTime() - start;

    assertThat(sixth.granted()).isFalse();
    // TAT = first call + 5 intervals; retry = TAT + interval - window - now = interval - (now -
    // first), and now - first (server) is at most the client time around the six calls.
    assertThat(sixth.delayNanos()).isBetween(interval - elapsed - US, interval);

    String key = test.prefix() + "{r:smooth}:smooth";
    assertThat(redis.type(key)).isEqualTo("string");
    // a whole number of micros: the interval is whole, so the stored TAT has no remainder
    long tat = Long.parseLong(redis.get(key));
    long now = test.serverMicros();
    long elapsedToNow = System.nanoTime() - start;
    assertThat(tat - now).isBetween((spec.windowNanos() - elapsedToNow) / US - 1, 5_000 * MS / US);
    // The script sets PX = ceil((TAT - now) / 1 ms) + 1; one more ms for the server's ms rounding.
    assertThat(redis.pttl(key)).isPositive().isLessThanOrEqualTo((tat - now) / 1000 + 3);

    // A caller that may wait less than the slot is rejected and reserves nothing.
    assertThat(rates.reserve(spec, interval / 2).granted()).isFalse();
    assertThat(Long.parseLong(redis.get(key))).isEqualTo(tat);
  }

  @Test
  void smoothReservesTheNextSlotForACallerThatMayWaitAndTheOneAfterOneIntervalLater() {
    RateSpec spec = new RateSpec("smooth", RateLimitType.SMOOTH, 5, 500 * MS);
    long interval = spec.emissionIntervalNanos();

    long start = System.nanoTime();
    for (int i = 0; i < 5; i++) {
      assertThat(rates.reserve(spec, 0).granted()).isTrue();
    }
    RateDecision first = rates.reserve(spec, interval);
    long firstDone = System.nanoTime();
    RateDecision second = rates.reserve(spec, 3 * interval);
    long secondDone = System.nanoTime();

    assertThat(first.granted()).isTrue();
    assertThat(first.delayNanos()).isBetween(interval - (firstDone - start) - US, interval);
    assertThat(second.granted()).isTrue();
    // One interval after the first reservation, minus the time that passed between the calls.
    assertThat(second.delayNanos())
        .isBetween(
            first.delayNanos() + interval - (secondDone - start), first.delayNanos() + interval);
    assertThat(rates.reserve(spec, interval).granted()).isFalse();
  }

  @Test
  void fixedGrantsPermitsPerWindowAndReservationsSpillIntoTheFollowingWindows()
      throws InterruptedException {
    long length = 500 * MS;
    RateSpec spec = new RateSpec("fixed", RateLimitType.FIXED, 3, length);
    long boundary = startOfAFreshWindow(length); // micros: where the current window ends

    for (int i = 0; i < 3; i++) {
      assertThat(rates.reserve(spec, 0)).as("permit %s", i).isEqualTo(RateDecision.NOW);
    }
    long before = test.serverMicros();
    RateDecision fourth = rates.reserve(spec, 0);
    long after = test.serverMicros();
    assertThat(fourth.granted()).isFalse();
    assertThat(fourth.delayNanos())
        .isPositive()
        .isLessThanOrEqualTo(length)
        .isBetween((boundary - after) * US, (boundary - before) * US);

    // Callers that may wait one window get the next window's three slots...
    for (int i = 0; i < 3; i++) {
      before = test.serverMicros();
      RateDecision reserved = rates.reserve(spec, length);
      after = test.serverMicros();
      assertThat(reserved.granted()).as("reservation %s", i).isTrue();
      assertThat(reserved.delayNanos())
          .isBetween((boundary - after) * US, (boundary - before) * US);
    }
    // ...and the next slot lies one window further: more than they may wait.
    assertThat(rates.reserve(spec, length).granted()).isFalse();
    before = test.serverMicros();
    RateDecision later = rates.reserve(spec, 2 * length);
    after = test.serverMicros();
    assertThat(later.granted()).isTrue();
    assertThat(later.delayNanos())
        .isBetween((boundary - after) * US + length, (boundary - before) * US + length);

    String key = test.prefix() + "{r:fixed}:fixed";
    assertThat(redis.type(key)).isEqualTo("hash");
    assertThat(redis.hget(key, "count")).isEqualTo("7");
    assertThat(Long.parseLong(redis.hget(key, "window"))).isEqualTo(boundary / (length / US) - 1);
    assertThat(redis.pttl(key))
        .isPositive()
        .isLessThanOrEqualTo((boundary + 2 * length / US - before) / 1000 + 2);

    // In the next window the reservations count: it is full already.
    sleepUntilServerMicros(boundary + 20_000);
    RateDecision nextWindow = rates.reserve(spec, 0);
    assertThat(nextWindow.granted()).isFalse();
    assertThat(nextWindow.delayNanos()).isPositive().isLessThanOrEqualTo(length);
  }

  @Test
  void rollingNeverAdmitsMoreThanPermitsInAnyWindow() {
    long window = 400 * MS;
    RateSpec spec = new RateSpec("rolling", RateLimitType.ROLLING, 3, window);
    String key = test.prefix() + "{r:rolling}:rolling";

    long start = System.nanoTime();
    assertThat(rates.reserve(spec, 0)).isEqualTo(RateDecision.NOW);
    long firstDone = System.nanoTime();
    for (int i = 1; i < 3; i++) {
      assertThat(rates.reserve(spec, 0)).isEqualTo(RateDecision.NOW);
    }
    RateDecision fourth = rates.reserve(spec, 0);
    long elapsed = System.nanoTime() - start;
    assertThat(fourth.granted()).isFalse();
    // The oldest grant leaves the window one window after it happened.
    assertThat(fourth.delayNanos()).isPositive().isBetween(window - elapsed - US, window);

    long reservedAt = System.nanoTime();
    RateDecision reserved = rates.reserve(spec, window);
    assertThat(reserved.granted()).isTrue();
    assertThat(reserved.delayNanos())
        .isBetween(
            window - (System.nanoTime() - start) - US, window - (reservedAt - firstDone) + US);

    assertThat(redis.type(key)).isEqualTo("list");
    List<Long> log = redis.lrange(key, 0, -1).stream().map(Long::parseLong).toList();
    assertThat(log).hasSize(4).isSorted();
    assertThat(log.get(3) - log.get(0)).isGreaterThanOrEqualTo(window / US);
    assertThat(redis.pttl(key)).isPositive();
  }

  @Test
  void rollingHoldsItsLimitOverTimeIncludingReservations() throws InterruptedException {
    long window = 200 * MS;
    int permits = 3;
    RateSpec spec = new RateSpec("rolling", RateLimitType.ROLLING, permits, window);
    String key = test.prefix() + "{r:rolling}:rolling";

    List<Long> slots = new ArrayList<>();
    int rejected = 0;
    for (int i = 0; i < 50; i++) {
      long maxWait = i % 5 == 4 ? window / 2 : 0;
      RateDecision decision = rates.reserve(spec, maxWait);
      if (decision.granted()) {
        // Single-threaded: the entry just pushed is the slot of this grant (server micros).
        slots.add(Long.parseLong(redis.lindex(key, -1)));
        assertThat(decision.delayNanos()).isBetween(0L, maxWait);
      } else {
        rejected++;
        assertThat(decision.delayNanos()).isPositive().isLessThanOrEqualTo(window + window / 2);
      }
      TimeUnit.MILLISECONDS.sleep(12);
    }

    assertThat(slots).isSorted();
    for (int i = 0; i + permits < slots.size(); i++) {
      assertThat(slots.get(i + permits) - slots.get(i))
          .as("grants %s..%s lie in one window", i, i + permits)
          .isGreaterThanOrEqualTo(window / US);
    }
    // Over about 600 ms of 200 ms windows it admits several windows' worth and rejects the rest.
    assertThat(slots.size()).isGreaterThanOrEqualTo(2 * permits);
    assertThat(rejected).isPositive();
  }

  @Test
  void smoothKeepsAnIntervalThatIsNotWholeExactAndReadsTheFormerFloatForm() {
    ControlledClock clock = new ControlledClock(test);
    long t = 1_700_000_000_000_000L;
    String key = test.keys().rate("thirds", "smooth");
    List<String> keys = List.of(key);
    List<String> threePerSecond = List.of("3", "1000000", "0");
    clock.set(t);
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, threePerSecond)).isEqualTo(0L);
    // TAT = t + 333 333 1/3 µs: whole micros, then the remainder in thirds
    assertThat(redis.get(key)).isEqualTo((t + 333_333) + ":1");
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, threePerSecond)).isEqualTo(0L);
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, threePerSecond)).isEqualTo(0L);
    assertThat(redis.get(key)).isEqualTo(Long.toString(t + 1_000_000));

    // a float written by an earlier version of the script counts, rounded up to a whole micro
    redis.set(key, (t + 1_000_000) + ".25");
    // the next slot: TAT + 1/3 s - 1 s, from t: 333 334 µs (rounded up), plus the rounding of TAT
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, threePerSecond)).isEqualTo(-1L - 333_335);
    redis.set(key, "not a time");
    assertThatThrownBy(() -> clock.run(Scripts.RATE_SMOOTH, keys, threePerSecond))
        .hasMessageContaining(key);
  }

  @Test
  void differentNamesAndTypesHaveSeparateState() {
    RateSpec one = new RateSpec("one", RateLimitType.SMOOTH, 1, 1_000 * MS);
    RateSpec two = new RateSpec("two", RateLimitType.SMOOTH, 1, 1_000 * MS);
    RateSpec oneFixed = new RateSpec("one", RateLimitType.FIXED, 1, 1_000 * MS);
    assertThat(rates.reserve(one, 0).granted()).isTrue();
    assertThat(rates.reserve(one, 0).granted()).isFalse();
    assertThat(rates.reserve(two, 0).granted()).isTrue();
    assertThat(test.keyNames())
        .containsExactlyInAnyOrder(
            test.prefix() + "{r:one}:smooth", test.prefix() + "{r:two}:smooth");
    rates.reserve(oneFixed, 0);
    assertThat(test.keyNames()).contains(test.prefix() + "{r:one}:fixed");
    test.assertEveryKeyExpires();
  }

  /**
   * Waits, if needed, until the server's clock is early in a window of {@code length} nanos and
   * returns where that window ends (server micros), so a test's calls all fall in one window.
   */
  private long startOfAFreshWindow(long length) throws InterruptedException {
    long lengthMicros = length / US;
    long now = test.serverMicros();
    if (now % lengthMicros > lengthMicros / 4) {
      sleepUntilServerMicros((now / lengthMicros + 1) * lengthMicros + 2_000);
      now = test.serverMicros();
    }
    return (now / lengthMicros + 1) * lengthMicros;
  }

  private void sleepUntilServerMicros(long target) throws InterruptedException {
    long now = test.serverMicros();
    while (now < target) {
      TimeUnit.MICROSECONDS.sleep(target - now);
      now = test.serverMicros();
    }
  }
}
