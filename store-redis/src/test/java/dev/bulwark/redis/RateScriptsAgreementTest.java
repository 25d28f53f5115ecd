package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.core.rate.FixedWindowState;
import dev.bulwark.core.rate.GcraState;
import dev.bulwark.core.rate.RateState;
import dev.bulwark.core.rate.ReservationOutcome;
import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.SetParams;

/**
 * The rate scripts and the Java arithmetic in core, fed the same calls at the same instants: equal
 * decisions, delays within one tick (the scripts count in micros, Java in nanos), and equal states
 * after every call, including a clock that steps back and, for FIXED and ROLLING, a limit redefined
 * with other permits. The random sequences print their seed; {@code -Dbulwark-test.seed=…} replays
 * one.
 *
 * <p>The scripts run on the test's clock as under {@link ControlledClock}, with one addition: the
 * key's expiry, set from the test's clock but run by the server's real one, could end the state
 * between two calls a microsecond apart (a TTL of 1 ms); so in the same script call the key is kept
 * for the test, which then compares it with the Java state.
 */
@ExtendWith(RedisExtension.class)
class RateScriptsAgreementTest {

  private static final long US = 1_000L;
  private static final long START = 1_700_000_000_000_000L; // micros

  private static final Pattern SERVER_MICROS =
      Pattern.compile("local function server_micros\\(\\)\\n.*?\\nend\\n", Pattern.DOTALL);

  /**
   * One call: the server's clock and how long the caller may wait, in micros, and the permits the
   * caller's definition of the limit gives (0: the sequence's).
   */
  private record Call(long micros, long maxWaitMicros, int permits) {
    Call(long micros, long maxWaitMicros) {
      this(micros, maxWaitMicros, 0);
    }
  }

  @ParameterizedTest
  @EnumSource(RateLimitType.class)
  void theyAgreeOnFixedSequences(RateLimitType type, TestRedis test) {
    Agreement agreement = new Agreement(test, type);
    long second = 1_000_000;
    // a burst at one instant, reservations, then the same instant again
    List<Call> burst = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      burst.add(new Call(START, i < 6 ? 0 : 2 * second));
    }
    agreement.check(5, second, burst);
    // a window that is no whole multiple of permits; calls on and next to window boundaries
    agreement.check(
        3,
        second + 1,
        List.of(
            new Call(START + 7, 0),
            new Call(START + 333_334, 0),
            new Call(START + 333_334, second),
            new Call(START + second, 0),
            new Call(START + second + 1, 0),
            new Call(START + second + 2, 3 * second),
            new Call(START + 2 * second + 2, 0),
            new Call(START + 2 * second + 3, 0)));
    // the clock steps back by 5 s, reservations are made, then it catches up
    agreement.check(
        3,
        second,
        List.of(
            new Call(START + 10 * second, 0),
            new Call(START + 5 * second, 0),
            new Call(START + 5 * second, 0),
            new Call(START + 5 * second, 10 * second),
            new Call(START + 5 * second, 10 * second),
            new Call(START + 10 * second + second / 2, 0),
            new Call(START + 11 * second, 0),
            new Call(START + 11 * second, 0),
            new Call(START + 30 * second, 0)));
    // an idle gap of many windows, then a burst that a tiny window barely holds
    agreement.check(
        8,
        3,
        List.of(
            new Call(START, 0),
            new Call(START, 0),
            new Call(START + 1000, 0),
            new Call(START + 1000, 5),
            new Call(START + 1001, 5),
            new Call(START + 1000, 5)));
    if (redefinable(type)) {
      // redefined with more permits while slots are reserved, then with fewer
      agreement.check(
          1,
          100_000,
          List.of(
              new Call(START, 0),
              new Call(START + 1, 200_000),
              new Call(START + 25_000, 0, 2),
              new Call(START + 25_000, 200_000, 2),
              new Call(START + 26_000, 300_000, 2),
              new Call(START + 26_000, 300_000, 3),
              new Call(START + 27_000, 0, 3),
              new Call(START + 27_000, 900_000, 1),
              new Call(START + 400_000, 0, 4),
              new Call(START + 400_000, 0, 4)));
    }
  }

  /**
   * Whether the sequences may change a limit's permits: SMOOTH keeps its arrival time in parts of a
   * micro that depend on the permits, so its states cannot be compared across a redefinition (the
   * rate store properties cover its redefinitions).
   */
  private static boolean redefinable(RateLimitType type) {
    return type != RateLimitType.SMOOTH;
  }

  @ParameterizedTest
  @EnumSource(RateLimitType.class)
  void theyAgreeOnRandomSequences(RateLimitType type, TestRedis test) {
    String fixed = System.getProperty("bulwark-test.seed");
    long seed = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
    System.out.println("RateScriptsAgreementTest " + type + " seed " + seed);
    Random random = new Random(seed);
    Agreement agreement = new Agreement(test, type);
    agreement.seed = seed;
    for (int run = 0; run < 12; run++) {
      int permits = 1 + random.nextInt(8);
      long[] windows = {1, 3, 7, 999, 1_000_000, 1 + random.nextInt(2_000_000)};
      long window = windows[random.nextInt(windows.length)];
      List<Call> calls = new ArrayList<>();
      long now = START + random.nextInt(1_000_000);
      for (int i = 0; i < 80; i++) {
        int move = random.nextInt(10);
        if (move == 0) {
          now -= random.nextLong(2 * window + 1); // the clock steps back
        } else if (move > 3) {
          now += (long) (random.nextDouble() * random.nextDouble() * window);
        } // otherwise: the same instant again
        long maxWait = random.nextBoolean() ? 0 : random.nextLong(2 * window + 1);
        if (redefinable(type) && random.nextInt(20) == 0) {
          permits = 1 + random.nextInt(8); // redefined
        }
        calls.add(new Call(now, maxWait, permits));
      }
      agreement.check(permits, window, calls);
    }
  }

  /** Runs sequences through both, one limit (one key) per sequence. */
  private static final class Agreement {

    private final TestRedis test;
    private final RedisClient redis;
    private final String clockKey;
    private final String source;
    private final RateLimitType type;
    private int sequences;
    long seed;

    Agreement(TestRedis test, RateLimitType type) {
      this.test = test;
      this.redis = test.redis();
      this.clockKey = test.prefix() + "agreement-clock";
      this.type = type;
      this.source =
          keptOnTheTestClock(
              switch (type) {
                case SMOOTH -> Scripts.RATE_SMOOTH;
                case FIXED -> Scripts.RATE_FIXED;
                case ROLLING -> Scripts.RATE_ROLLING;
              });
    }

    /** The script with its clock read from {@code clockKey}, its key kept for ten minutes. */
    private String keptOnTheTestClock(LuaScript script) {
      Matcher clock = SERVER_MICROS.matcher(script.source());
      assertThat(clock.find())
          .as("%s reads the time through server_micros", script.name())
          .isTrue();
      String onTestClock =
          clock.replaceFirst(
              Matcher.quoteReplacement(
                  "local function server_micros()\n  return tonumber(redis.call('GET', '"
                      + clockKey
                      + "'))\nend\n"));
      return "local function reserve()\n"
          + onTestClock
          + "\nend\nlocal reply = reserve()\n"
          + "redis.call('PEXPIRE', KEYS[1], 600000)\n"
          + "return reply\n";
    }

    void check(int definedPermits, long windowMicros, List<Call> calls) {
      String name = "agree" + sequences++;
      String key = test.keys().rate(name, type.name().toLowerCase(Locale.ROOT));
      RateState state = RateState.initial(type);
      for (int i = 0; i < calls.size(); i++) {
        Call call = calls.get(i);
        int permits = call.permits() > 0 ? call.permits() : definedPermits;
        RateSpec spec = new RateSpec(name, type, permits, windowMicros * US);
        String where =
            String.format(
                "seed %s, %s value=%s window=%sµs, call %s, the last calls %s",
                seed, type, permits, windowMicros, i, calls.subList(Math.max(0, i - 8), i + 1));
        redis.set(clockKey, Long.toString(call.micros()), SetParams.setParams().px(600_000));
        long reply =
            (Long)
                redis.eval(
                    source,
                    List.of(key),
                    List.of(
                        Integer.toString(permits),
                        Long.toString(windowMicros),
                        Long.toString(call.maxWaitMicros())));
        RateDecision lua = RedisRates.decision(reply);
        ReservationOutcome outcome =
            state.reserve(spec, call.micros() * US, call.maxWaitMicros() * US);
        RateDecision java = outcome.decision();
        state = outcome.next();

        assertThat(lua.granted()).as("granted, %s", where).isEqualTo(java.granted());
        assertThat(lua.delayNanos() - java.delayNanos())
            .as("delay: script %s ns, Java %s ns, %s", lua.delayNanos(), java.delayNanos(), where)
            .isBetween(0L, US - 1);
        assertThat(luaState(key, permits))
            .as("state after the call, %s", where)
            .containsExactly(javaState(state, permits));
        if (type == RateLimitType.ROLLING) {
          assertThat(luaState(key, permits)).as("the log ascending, %s", where).isSorted();
        }
      }
    }

    /** The script's state in micros, as the Java state's form would read. */
    private long[] luaState(String key, int permits) {
      switch (type) {
        case SMOOTH:
          {
            String stored = redis.get(key);
            if (stored == null) {
              return new long[] {0, 0};
            }
            String[] parts = stored.split(":");
            return new long[] {
              Long.parseLong(parts[0]), parts.length > 1 ? Long.parseLong(parts[1]) : 0
            };
          }
        case FIXED:
          {
            List<String> fields = redis.hmget(key, "window", "count");
            return fields.get(0) == null
                ? new long[] {Long.MIN_VALUE, 0}
                : new long[] {Long.parseLong(fields.get(0)), Long.parseLong(fields.get(1))};
          }
        default:
          return redis.lrange(key, 0, -1).stream().mapToLong(Long::parseLong).toArray();
      }
    }

    /** The Java state in micros: times divided by 1000, exactly (every input was whole micros). */
    private static long[] javaState(RateState state, int permits) {
      if (state instanceof GcraState gcra) {
        // TAT = whole + remainder / permits ns = (whole * permits + remainder) / (1000 permits) µs
        long whole = Math.floorDiv(gcra.theoreticalArrival(), US);
        long restNanos = Math.floorMod(gcra.theoreticalArrival(), US) * permits + gcra.remainder();
        assertThat(restNanos % US).as("TAT in whole 1/permits micros").isZero();
        return new long[] {whole, restNanos / US};
      }
      if (state instanceof FixedWindowState) {
        return state.toLongs();
      }
      return Arrays.stream(state.toLongs())
          .peek(nanos -> assertThat(nanos % US).as("grant time in whole micros").isZero())
          .map(nanos -> nanos / US)
          .toArray();
    }
  }
}
