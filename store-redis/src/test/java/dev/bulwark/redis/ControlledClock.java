package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.client.LuaScript;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.SetParams;

/**
 * Runs the store's scripts, unchanged but for their clock, against a server time the test sets:
 * expiry, clock steps and rate boundaries become exact instead of bounded by round trips. Only the
 * one function every script reads the time through ({@code server_micros} in {@code
 * lib/common.lua}) is swapped, for one that reads a key under the test's prefix.
 */
final class ControlledClock {

  private static final Pattern SERVER_MICROS =
      Pattern.compile("local function server_micros\\(\\)\\n.*?\\nend\\n", Pattern.DOTALL);

  private final RedisClient redis;
  private final String clockKey;
  private final UnaryOperator<String> furtherSwaps;
  private final Map<String, String> clocked = new ConcurrentHashMap<>();

  /** Starts at an arbitrary, realistic instant (2023-11-14), in microseconds. */
  ControlledClock(TestRedis test) {
    this(test, UnaryOperator.identity());
  }

  /**
   * @param furtherSwaps applied to each script's text after its clock is swapped, for a harness
   *     that observes more of a script than its keys (see {@link ModelCheckSeam})
   */
  ControlledClock(TestRedis test, UnaryOperator<String> furtherSwaps) {
    this.redis = test.redis();
    this.clockKey = test.prefix() + "clock";
    this.furtherSwaps = furtherSwaps;
    set(1_700_000_000_000_000L);
  }

  /** Sets the server's clock, microseconds since the epoch; it may step back. */
  void set(long micros) {
    redis.set(clockKey, Long.toString(micros), SetParams.setParams().px(3_600_000));
  }

  long micros() {
    return Long.parseLong(redis.get(clockKey));
  }

  void advanceMillis(long millis) {
    set(micros() + millis * 1000);
  }

  void advanceMicros(long micros) {
    set(micros() + micros);
  }

  /** Runs {@code script} as the store would, its clock reading this one. */
  Object run(LuaScript script, List<String> keys, List<String> args) {
    return redis.eval(clocked.computeIfAbsent(script.name(), n -> swapClock(script)), keys, args);
  }

  private String swapClock(LuaScript script) {
    Matcher clock = SERVER_MICROS.matcher(script.source());
    assertThat(clock.find()).as("%s reads the time through server_micros", script.name()).isTrue();
    String replacement =
        "local function server_micros()\n  return tonumber(redis.call('GET', '"
            + clockKey
            + "'))\nend\n";
    return furtherSwaps.apply(clock.replaceFirst(Matcher.quoteReplacement(replacement)));
  }
}
