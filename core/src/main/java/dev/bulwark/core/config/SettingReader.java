package dev.bulwark.core.config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Reads Bulwark's settings: text, booleans, whole numbers and durations, each checked the same way
 * wherever it is read, and a bad value reported in one format that names the key and the value:
 * {@code Invalid config key 'bulwark.redis.pool-size': '0' is not a whole number from 1 to
 * 2147483647}.
 *
 * <p>The value checks are also offered on their own ({@link #parseBoolean}, {@link #parseInt},
 * {@link #parseDuration}) for a reader that reports with more context, such as the method a limit
 * is declared on; they throw {@link IllegalArgumentException} with the value and the problem.
 */
public final class SettingReader {

  private final ConfigLookup config;
  private final Function<String, RuntimeException> failure;

  /**
   * @param failure makes the exception a bad value is reported with, from the message
   */
  public SettingReader(ConfigLookup config, Function<String, RuntimeException> failure) {
    this.config = config;
    this.failure = failure;
  }

  /** A reader whose bad values fail as {@link InvalidDefinitionException}. */
  public static SettingReader of(ConfigLookup config) {
    return new SettingReader(config, InvalidDefinitionException::new);
  }

  /** The value, trimmed; empty when the key is not set or blank. */
  public Optional<String> text(String key) {
    return config.get(key).map(String::trim).filter(v -> !v.isEmpty());
  }

  /** The value as it is set, not trimmed; for secrets, which a message shows as {@code ***}. */
  public Optional<String> raw(String key) {
    return config.get(key).filter(v -> !v.isEmpty());
  }

  /** A boolean as MicroProfile Config reads one ({@link #parseBoolean}). */
  public Optional<Boolean> bool(String key) {
    return text(key).map(value -> checked(key, value, SettingReader::parseBoolean));
  }

  /** A whole number from {@code min} to {@code max}. */
  public Optional<Integer> integer(String key, int min, int max) {
    return text(key).map(value -> checked(key, value, v -> parseInt(v, min, max)));
  }

  /** A duration ({@link Durations#parse}); a bare number is an amount of {@code bareUnit}. */
  public Optional<Duration> duration(String key, ChronoUnit bareUnit) {
    return text(key).map(value -> checked(key, value, v -> parseDuration(v, bareUnit)));
  }

  /**
   * The value of {@code key} as {@code parse} reads it; an {@link IllegalArgumentException} from
   * {@code parse}, whose message says what is wrong with the value, is reported for the key.
   */
  public <T> Optional<T> value(String key, Function<String, T> parse) {
    return text(key).map(value -> checked(key, value, parse));
  }

  /** The exception for {@code key} set to {@code shown} (the value, or {@code ***}). */
  public RuntimeException invalid(String key, String shown, String problem) {
    return invalid(key, "'" + shown + "' " + problem);
  }

  /** The exception for {@code key}; {@code problem} shows the value where it can be shown. */
  public RuntimeException invalid(String key, String problem) {
    return failure.apply("Invalid config key '" + key + "': " + problem);
  }

  private <T> T checked(String key, String value, Function<String, T> parse) {
    try {
      return parse.apply(value);
    } catch (IllegalArgumentException e) {
      throw invalid(key, e.getMessage());
    }
  }

  /** The full keys of {@code names} under {@code prefix} ({@code bulwark.redis.} …). */
  public static Set<String> keys(String prefix, String... names) {
    Set<String> keys = new TreeSet<>();
    for (String name : names) {
      keys.add(prefix + name);
    }
    return Collections.unmodifiableSet(keys);
  }

  /**
   * {@code true}, {@code 1}, {@code yes}, {@code y}, {@code on} or {@code false}, {@code 0}, {@code
   * no}, {@code n}, {@code off}, in any case: what MicroProfile Config (SmallRye Config) takes for
   * a boolean. Anything else is refused rather than read as false, so a typo cannot switch a guard
   * off.
   */
  public static boolean parseBoolean(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes", "y", "on" -> true;
      case "false", "0", "no", "n", "off" -> false;
      default ->
          throw new IllegalArgumentException(
              "'" + text + "' is not a boolean (true/false, yes/no, on/off, 1/0, y/n)");
    };
  }

  /** Digits only (no sign, no blanks: a typo is not a number), from {@code min} to {@code max}. */
  public static int parseInt(String text, int min, int max) {
    String value = text.trim();
    if (value.matches("[0-9]{1,10}")) {
      long parsed = Long.parseLong(value);
      if (parsed >= min && parsed <= max) {
        return (int) parsed;
      }
    }
    throw new IllegalArgumentException(
        "'" + text + "' is not a whole number from " + min + " to " + max);
  }

  /** Digits only, as {@link #parseInt}, from {@code min} to {@code max}, for longer numbers. */
  public static long parseLong(String text, long min, long max) {
    String value = text.trim();
    if (value.matches("[0-9]{1,18}")) {
      long parsed = Long.parseLong(value);
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    }
    throw new IllegalArgumentException(
        "'" + text + "' is not a whole number from " + min + " to " + max);
  }

  /** {@link Durations#parse}, as a setting reads it; one too long for a {@link Duration} too. */
  public static Duration parseDuration(String text, ChronoUnit bareUnit) {
    try {
      return Durations.parse(text, bareUnit);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("'" + text + "' is longer than a duration can be", e);
    }
  }
}
