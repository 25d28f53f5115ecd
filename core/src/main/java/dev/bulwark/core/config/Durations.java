package dev.bulwark.core.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Duration values of config keys: {@code 200ms}, {@code 5s}, {@code 1m}, ISO-8601 or a number. */
public final class Durations {

  private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)");

  private Durations() {}

  /**
   * Parses {@code text}; a bare number is an amount of {@code bareUnit}.
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static Duration parse(String text, ChronoUnit bareUnit) {
    String value = text.trim();
    if (value.matches("\\d{1,18}")) {
      return of(Long.parseLong(value), bareUnit);
    }
    Matcher shortForm = SHORT.matcher(value.toLowerCase(Locale.ROOT));
    if (shortForm.matches() && shortForm.group(1).length() <= 18) { // longer overflows a long
      return of(Long.parseLong(shortForm.group(1)), unitOf(shortForm.group(2)));
    }
    if (value.length() > 1 && (value.charAt(0) == 'P' || value.charAt(0) == 'p')) {
      try {
        Duration duration = Duration.parse(value);
        if (duration.isNegative()) {
          throw new IllegalArgumentException("'" + text + "' is negative");
        }
        return duration;
      } catch (DateTimeParseException e) {
        // reported below with the accepted forms
      }
    }
    throw new IllegalArgumentException(
        "'"
            + text
            + "' is not a duration (use 200ms, 5s, 1m, 2h, ISO-8601 like PT0.2S, or a number)");
  }

  /** {@code amount} of {@code unit}, refusing units without a fixed length. */
  public static Duration of(long amount, ChronoUnit unit) {
    if (amount < 0) {
      throw new IllegalArgumentException(amount + " is negative");
    }
    if (unit == null || (unit.isDurationEstimated() && unit != ChronoUnit.DAYS)) {
      throw new IllegalArgumentException(
          "unit " + unit + " has no fixed length (use NANOS … DAYS)");
    }
    return unit.getDuration().multipliedBy(amount);
  }

  private static ChronoUnit unitOf(String suffix) {
    return switch (suffix) {
      case "ns" -> ChronoUnit.NANOS;
      case "us" -> ChronoUnit.MICROS;
      case "ms" -> ChronoUnit.MILLIS;
      case "s" -> ChronoUnit.SECONDS;
      case "m" -> ChronoUnit.MINUTES;
      case "h" -> ChronoUnit.HOURS;
      default -> ChronoUnit.DAYS;
    };
  }

  /** A short human form for the startup table. */
  public static String format(Duration duration) {
    long millis = duration.toMillis();
    if (duration.isZero()) {
      return "0";
    }
    if (millis == 0) {
      return duration.toNanos() + "ns";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + "m";
    }
    if (millis % 1000 == 0) {
      return millis / 1000 + "s";
    }
    return millis + "ms";
  }
}
