package dev.bulwark.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.tck.PropertyTries;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Config values as an operator writes them: durations ({@code 200ms}, ISO-8601, bare numbers), the
 * rate shorthand ({@code 100/1m}, {@code 100/minute}) and limit names. Valid ones read as what they
 * say and print back; invalid ones fail with a message that quotes the value and names the key.
 */
@AddLifecycleHook(PropertyTries.class)
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

  @Provide
  Arbitrary<Written> shortForms() {
    return Combinators.combine(
            Arbitraries.longs().between(0, 100_000),
            Arbitraries.integers().between(0, SUFFIXES.size() - 1),
            Arbitraries.of("", " "),
            Arbitraries.of(true, false))
        .as(
            (amount, unit, blank, upper) -> {
              String suffix = SUFFIXES.get(unit);
              String text = amount + blank + (upper ? suffix.toUpperCase(Locale.ROOT) : suffix);
              return new Written(text, UNITS.get(unit).getDuration().multipliedBy(amount));
            });
  }

  @Property(tries = 500)
  void aShortFormReadsAsItsAmountOfItsUnit(@ForAll("shortForms") Written written) {
    assertThat(Durations.parse(written.text(), ChronoUnit.MILLIS)).isEqualTo(written.duration());
    assertThat(Durations.parse(" " + written.text() + " ", ChronoUnit.MILLIS))
        .as("blanks around")
        .isEqualTo(written.duration());
  }

  @Property(tries = 500)
  void aBareNumberIsAnAmountOfTheMembersUnit(
      @ForAll @LongRange(min = 0, max = 1_000_000) long amount, @ForAll("units") ChronoUnit unit) {
    assertThat(Durations.parse(Long.toString(amount), unit))
        .isEqualTo(unit.getDuration().multipliedBy(amount));
  }

  @Provide
  Arbitrary<ChronoUnit> units() {
    return Arbitraries.of(UNITS);
  }

  @Property(tries = 500)
  void anIsoDurationReadsAsItself(
      @ForAll @LongRange(min = 0, max = 10_000_000) long seconds,
      @ForAll @IntRange(min = 0, max = 999_999_999) int nanos) {
    Duration duration = Duration.ofSeconds(seconds, nanos);
    assertThat(Durations.parse(duration.toString(), ChronoUnit.MILLIS)).isEqualTo(duration);
  }

  @Property(tries = 500)
  void whatTheStartupTablePrintsReadsBackAsTheSameDuration(
      @ForAll @LongRange(min = 0, max = 10_000_000) long millis,
      @ForAll @IntRange(min = 0, max = 999_999) int subMillisNanos) {
    // the short form keeps whole milliseconds, or nanoseconds below one millisecond
    for (Duration duration : List.of(Duration.ofMillis(millis), Duration.ofNanos(subMillisNanos))) {
      String printed = Durations.format(duration);
      assertThat(Durations.parse(printed, ChronoUnit.MILLIS)).as(printed).isEqualTo(duration);
    }
  }

  @Provide
  Arbitrary<String> notDurations() {
    Arbitrary<String> number = Arbitraries.longs().between(1, 10_000).map(n -> Long.toString(n));
    return Arbitraries.oneOf(
        number.map(n -> "-" + n + "s"),
        number.map(n -> n + ".5s"),
        number.map(n -> "PT-" + n + "S"),
        Combinators.combine(number, Arbitraries.of("x", "sec", "min", "w", "y", "µs", "mss"))
            .as((n, unit) -> n + unit),
        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8).filter(s -> !isUnitWord(s)),
        Arbitraries.of("", " ", "P", "PT", "s", "1 2s", "1s2"));
  }

  private static boolean isUnitWord(String text) {
    return text.toLowerCase(Locale.ROOT).startsWith("p");
  }

  @Property(tries = 500)
  void anythingElseIsRefusedQuotingTheValue(@ForAll("notDurations") String text) {
    assertThatThrownBy(() -> Durations.parse(text, ChronoUnit.MILLIS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'");
  }

  @Property(tries = 200)
  void anInvalidDurationInConfigFailsTheDefinitionNamingTheKey(
      @ForAll("names") String name,
      @ForAll("notDurations") String text,
      @ForAll("durationMembers") String member) {
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
  }

  @Provide
  Arbitrary<String> durationMembers() {
    return Arbitraries.of("waiting-time", "lease");
  }

  /**
   * {@code <permits>/<window>} with a short-form window written without a blank inside ({@code
   * 100/1m}, as documented), or a unit word meaning one of it.
   */
  record Shorthand(String text, int permits, Duration window) {}

  @Provide
  Arbitrary<Shorthand> shorthands() {
    Arbitrary<Written> windows =
        Arbitraries.oneOf(
            shortForms()
                .filter(w -> w.duration().toMillis() >= 1 && w.text().matches("\\d+[a-zA-Z]+")),
            Arbitraries.of(
                new Written("second", Duration.ofSeconds(1)),
                new Written("sec", Duration.ofSeconds(1)),
                new Written("minute", Duration.ofMinutes(1)),
                new Written("MIN", Duration.ofMinutes(1)),
                new Written("hour", Duration.ofHours(1)),
                new Written("Day", Duration.ofDays(1))));
    return Combinators.combine(
            Arbitraries.integers().between(1, 100_000), windows, Arbitraries.of("", " "))
        .as(
            (permits, window, blank) ->
                new Shorthand(
                    permits + blank + "/" + blank + window.text(), permits, window.duration()));
  }

  @Property(tries = 500)
  void aRateShorthandReadsAsItsPermitsPerItsWindow(
      @ForAll("names") String name, @ForAll("shorthands") Shorthand shorthand) {
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
  }

  @Provide
  Arbitrary<String> notShorthands() {
    Arbitrary<String> number = Arbitraries.integers().between(1, 1000).map(i -> "" + i);
    return Arbitraries.oneOf(
        number,
        number.map(n -> n + "/"),
        number.map(n -> "/" + n + "s"),
        number.map(n -> "-" + n + "/1s"),
        number.map(n -> n + "/1s/2"),
        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6).map(s -> s + "/1m"));
  }

  @Property(tries = 300)
  void anythingElseInTheShorthandFailsNamingTheKey(
      @ForAll("names") String name, @ForAll("notShorthands") String text) {
    String key = "bulwark.rate-limit." + name;
    DefinitionResolver resolver = new DefinitionResolver(ConfigLookup.of(Map.of(key, text)));
    assertThatThrownBy(() -> resolver.rateLimit(name))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("'" + key + "'");
  }

  @Provide
  Arbitrary<String> names() {
    Arbitrary<Character> first =
        Arbitraries.chars().range('a', 'z').range('A', 'Z').range('0', '9').with('_');
    Arbitrary<String> rest =
        Arbitraries.strings()
            .withCharRange('a', 'z')
            .withCharRange('A', 'Z')
            .withCharRange('0', '9')
            .withChars("_.:#$-")
            .ofMaxLength(199);
    return Combinators.combine(first, rest).as((f, r) -> f + r);
  }

  @Property(tries = 500)
  void aValidNameNamesItsLimit(@ForAll("names") String name) {
    assertThat(DefinitionResolver.isValidName(name)).isTrue();
    assertThat(new DefinitionResolver(ConfigLookup.empty()).bulkhead(name).name()).isEqualTo(name);
  }

  @Provide
  Arbitrary<String> invalidNames() {
    return Arbitraries.oneOf(
        names().map(n -> "-" + n),
        names().map(n -> "." + n),
        names().map(n -> n + "/x"),
        names().map(n -> n + " x"),
        names().map(n -> n + "é"),
        names().filter(n -> n.length() == 200).map(n -> n + "x"),
        Arbitraries.strings().withChars("*?/= \t\"'").ofMinLength(1).ofMaxLength(5));
  }

  @Property(tries = 500)
  void anInvalidNameIsRefusedNamingTheMemberAndTheRule(@ForAll("invalidNames") String name) {
    assertThat(DefinitionResolver.isValidName(name)).isFalse();
    assertThatThrownBy(() -> new DefinitionResolver(ConfigLookup.empty()).bulkhead(name))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("member 'name' = '" + name + "'")
        .hasMessageContaining("must match");
  }
}
