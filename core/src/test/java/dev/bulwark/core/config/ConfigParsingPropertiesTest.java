package dev.bulwark.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.tck.property.Gen;
import dev.bulwark.tck.property.Property;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Config values as an operator writes them: durations ({@code 200ms}, ISO-8601, bare numbers), the
 * rate shorthand ({@code 100/1m}, {@code 100/minute}) and limit names. Valid ones read as what they
 * say and print back; invalid ones fail with a message that quotes the value and names the key.
 */
class ConfigParsingPropertiesTest {

  private static final List<String> SUFFIXES = List.of("ns", "us", "ms", "s", "m", "h", "d");
  private static final List<ChronoUnit> UNITS =
      List.of(
          ChronoUnit.NANOS,
          ChronoUnit.MICROS,
          ChronoUnit.MILLIS,
          ChronoUnit.SECONDS,
          ChronoUnit.MINUTES,
          ChronoUnit.HOURS,
          ChronoUnit.DAYS);

  /** A duration in the short form, as written, and what it stands for. */
  record Written(String text, Duration duration) {}

  private static final String ALPHA = Gen.range('a', 'z') + Gen.range('A', 'Z');

  static Gen<Written> shortForms() {
    Gen<Long> amounts = Gen.longs(0, 100_000);
    Gen<Integer> units = Gen.ints(0, SUFFIXES.size() - 1);
    Gen<String> blanks = Gen.of("", " ");
    Gen<Boolean> uppers = Gen.of(true, false);
    return draws -> {
      long amount = amounts.next(draws);
      int unit = units.next(draws);
      String blank = blanks.next(draws);
      boolean upper = uppers.next(draws);
      String suffix = SUFFIXES.get(unit);
      String text = amount + blank + (upper ? suffix.toUpperCase(Locale.ROOT) : suffix);
      return new Written(text, UNITS.get(unit).getDuration().multipliedBy(amount));
    };
  }

  @Test
  void aShortFormReadsAsItsAmountOfItsUnit() {
    Property.forAll(
        500,
        shortForms(),
        written -> {
          assertThat(Durations.parse(written.text(), ChronoUnit.MILLIS))
              .isEqualTo(written.duration());
          assertThat(Durations.parse(" " + written.text() + " ", ChronoUnit.MILLIS))
              .as("blanks around")
              .isEqualTo(written.duration());
        });
  }

  @Test
  void aBareNumberIsAnAmountOfTheMembersUnit() {
    Property.forAll(
        500,
        Gen.longs(0, 1_000_000),
        Gen.of(UNITS),
        (amount, unit) ->
            assertThat(Durations.parse(Long.toString(amount), unit))
                .isEqualTo(unit.getDuration().multipliedBy(amount)));
  }

  @Test
  void anIsoDurationReadsAsItself() {
    Property.forAll(
        500,
        Gen.longs(0, 10_000_000),
        Gen.ints(0, 999_999_999),
        (seconds, nanos) -> {
          Duration duration = Duration.ofSeconds(seconds, nanos);
          assertThat(Durations.parse(duration.toString(), ChronoUnit.MILLIS)).isEqualTo(duration);
        });
  }

  @Test
  void whatTheStartupTablePrintsReadsBackAsTheSameDuration() {
    Property.forAll(
        500,
        Gen.longs(0, 10_000_000),
        Gen.ints(0, 999_999),
        (millis, subMillisNanos) -> {
          // the short form keeps whole milliseconds, or nanoseconds below one millisecond
          for (Duration duration :
              List.of(Duration.ofMillis(millis), Duration.ofNanos(subMillisNanos))) {
            String printed = Durations.format(duration);
            assertThat(Durations.parse(printed, ChronoUnit.MILLIS)).as(printed).isEqualTo(duration);
          }
        });
  }

  static Gen<String> notDurations() {
    Gen<String> number = Gen.longs(1, 10_000).map(n -> Long.toString(n));
    Gen<String> units = Gen.of("x", "sec", "min", "w", "y", "µs", "mss");
    return Gen.oneOf(
        number.map(n -> "-" + n + "s"),
        number.map(n -> n + ".5s"),
        number.map(n -> "PT-" + n + "S"),
        draws -> number.next(draws) + units.next(draws),
        Gen.strings(ALPHA, 1, 8).filter(s -> !isUnitWord(s)),
        Gen.of("", " ", "P", "PT", "s", "1 2s", "1s2"));
  }

  private static boolean isUnitWord(String text) {
    return text.toLowerCase(Locale.ROOT).startsWith("p");
  }

  @Test
  void anythingElseIsRefusedQuotingTheValue() {
    Property.forAll(
        500,
        notDurations(),
        text ->
            assertThatThrownBy(() -> Durations.parse(text, ChronoUnit.MILLIS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'"));
  }

  @Test
  void anInvalidDurationInConfigFailsTheDefinitionNamingTheKey() {
    Property.forAll(
        200,
        names(),
        notDurations(),
        Gen.of("waiting-time", "lease"),
        (name, text, member) -> {
          String key = "bulwark.bulkhead." + name + "." + member;
          DefinitionResolver resolver = new DefinitionResolver(ConfigLookup.of(Map.of(key, text)));
          if (text.isBlank()) {
            // a blank value is no value: the default stands
            assertThat(resolver.bulkhead(name).name()).isEqualTo(name);
            return;
          }
          assertThatThrownBy(() -> resolver.bulkhead(name))
              .isInstanceOf(InvalidDefinitionException.class)
              .hasMessageContaining("'" + key + "'")
              .hasMessageContaining(
                  "member '" + (member.equals("lease") ? "lease" : "waitingTime") + "'");
        });
  }

  /**
   * {@code <permits>/<window>} with a short-form window written without a blank inside ({@code
   * 100/1m}, as documented), or a unit word meaning one of it.
   */
  record Shorthand(String text, int permits, Duration window) {}

  static Gen<Shorthand> shorthands() {
    Gen<Written> windows =
        Gen.oneOf(
            shortForms()
                .filter(w -> w.duration().toMillis() >= 1 && w.text().matches("\\d+[a-zA-Z]+")),
            Gen.of(
                new Written("second", Duration.ofSeconds(1)),
                new Written("sec", Duration.ofSeconds(1)),
                new Written("minute", Duration.ofMinutes(1)),
                new Written("MIN", Duration.ofMinutes(1)),
                new Written("hour", Duration.ofHours(1)),
                new Written("Day", Duration.ofDays(1))));
    Gen<Integer> permitCounts = Gen.ints(1, 100_000);
    Gen<String> blanks = Gen.of("", " ");
    return draws -> {
      int permits = permitCounts.next(draws);
      Written window = windows.next(draws);
      String blank = blanks.next(draws);
      return new Shorthand(
          permits + blank + "/" + blank + window.text(), permits, window.duration());
    };
  }

  @Test
  void aRateShorthandReadsAsItsPermitsPerItsWindow() {
    Property.forAll(
        500,
        names(),
        shorthands(),
        (name, shorthand) -> {
          // a window too short for its permits is refused by another rule; keep to those that fit
          if (shorthand.window().toNanos() / shorthand.permits() == 0) {
            return;
          }
          RateLimitDefinition definition =
              new DefinitionResolver(
                      ConfigLookup.of(Map.of("bulwark.rate-limit." + name, shorthand.text())))
                  .rateLimit(name);
          assertThat(definition.value()).as(shorthand.text()).isEqualTo(shorthand.permits());
          assertThat(definition.window()).as(shorthand.text()).isEqualTo(shorthand.window());
          assertThat(definition.sources())
              .containsEntry("value", "bulwark.rate-limit." + name)
              .containsEntry("window", "bulwark.rate-limit." + name);
        });
  }

  static Gen<String> notShorthands() {
    Gen<String> number = Gen.ints(1, 1000).map(i -> "" + i);
    return Gen.oneOf(
        number,
        number.map(n -> n + "/"),
        number.map(n -> "/" + n + "s"),
        number.map(n -> "-" + n + "/1s"),
        number.map(n -> n + "/1s/2"),
        Gen.strings(ALPHA, 1, 6).map(s -> s + "/1m"));
  }

  @Test
  void anythingElseInTheShorthandFailsNamingTheKey() {
    Property.forAll(
        300,
        names(),
        notShorthands(),
        (name, text) -> {
          String key = "bulwark.rate-limit." + name;
          DefinitionResolver resolver = new DefinitionResolver(ConfigLookup.of(Map.of(key, text)));
          assertThatThrownBy(() -> resolver.rateLimit(name))
              .isInstanceOf(InvalidDefinitionException.class)
              .hasMessageContaining("'" + key + "'");
        });
  }

  static Gen<String> names() {
    String alphanumeric = Gen.range('a', 'z') + Gen.range('A', 'Z') + Gen.range('0', '9');
    Gen<String> first = Gen.strings(alphanumeric + "_", 1, 1);
    Gen<String> rest = Gen.strings(alphanumeric + "_.:#$-", 0, 199);
    return draws -> first.next(draws) + rest.next(draws);
  }

  @Test
  void aValidNameNamesItsLimit() {
    Property.forAll(
        500,
        names(),
        name -> {
          assertThat(DefinitionResolver.isValidName(name)).isTrue();
          assertThat(new DefinitionResolver(ConfigLookup.empty()).bulkhead(name).name())
              .isEqualTo(name);
        });
  }

  static Gen<String> invalidNames() {
    return Gen.oneOf(
        names().map(n -> "-" + n),
        names().map(n -> "." + n),
        names().map(n -> n + "/x"),
        names().map(n -> n + " x"),
        names().map(n -> n + "é"),
        names().filter(n -> n.length() == 200).map(n -> n + "x"),
        Gen.strings("*?/= \t\"'", 1, 5));
  }

  @Test
  void anInvalidNameIsRefusedNamingTheMemberAndTheRule() {
    Property.forAll(
        500,
        invalidNames(),
        name -> {
          assertThat(DefinitionResolver.isValidName(name)).isFalse();
          assertThatThrownBy(() -> new DefinitionResolver(ConfigLookup.empty()).bulkhead(name))
              .isInstanceOf(InvalidDefinitionException.class)
              .hasMessageContaining("member 'name' = '" + name + "'")
              .hasMessageContaining("must match");
        });
  }
}
