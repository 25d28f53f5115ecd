package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.bulwark.tck.property.Action;
import dev.bulwark.tck.property.ActionChain;
import dev.bulwark.tck.property.ChainStep;
import dev.bulwark.tck.property.Gen;
import dev.bulwark.tck.property.Property;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The property runner the store properties and core's properties use: a failing property fails its
 * test naming a seed, the seed replays the same sample, the sample is shrunk to a simplest one, and
 * a holding property runs all its tries.
 */
class PropertyEngineTest {

  private static final Pattern SEED = Pattern.compile("seed (-?\\d+); replay it with -Dtest=");

  @AfterEach
  void clearSystemProperties() {
    System.clearProperty(Property.SEED);
    System.clearProperty(Property.SCALE);
  }

  @Test
  void aHoldingPropertyRunsAllItsTriesTimesTheScale() {
    AtomicInteger runs = new AtomicInteger();
    Property.forAll(40, Gen.ints(0, 10), n -> runs.incrementAndGet());
    assertThat(runs).hasValue(40);

    System.setProperty(Property.SCALE, "3");
    runs.set(0);
    Property.forAll(40, Gen.ints(0, 10), n -> runs.incrementAndGet());
    assertThat(runs).hasValue(120);
  }

  @Test
  void generatedValuesStayInTheirRangesAndReachTheirEnds() {
    List<Long> seen = new ArrayList<>();
    Property.forAll(
        500,
        Gen.longs(-5, 1_000_000),
        n -> {
          assertThat(n).isBetween(-5L, 1_000_000L);
          seen.add(n);
        });
    assertThat(seen).contains(-5L, 1_000_000L);
    Property.forAll(200, Gen.ints(1, 3).list(2, 8), list -> assertThat(list).hasSizeBetween(2, 8));
  }

  @Test
  void aFailureNamesItsSeedAndShrinksToTheSimplestFailingSample() {
    AssertionError failure =
        catchThrowableOfType(
            () ->
                Property.forAll(
                    200,
                    Gen.longs(0, 1_000_000).list(0, 20),
                    list -> assertThat(list).allMatch(n -> n < 1000)),
            AssertionError.class);

    assertThat(failure)
        .hasMessageContaining(
            "-Dtest='PropertyEngineTest#aFailureNamesItsSeedAndShrinksToTheSimplestFailingSample'");
    assertThat(failure.getMessage()).containsPattern(SEED);
    // the one element at the smallest value that fails: every other element and every larger
    // value was shrunk away
    assertThat(failure.getMessage()).contains("Shrunk sample").contains("  [1000]\n");
  }

  @Test
  void theSeedOfAFailureReplaysTheSameFailure() {
    Runnable property =
        () ->
            Property.forAll(
                300,
                Gen.longs(0, 1_000_000),
                Gen.strings("ab", 0, 10),
                (n, text) -> assertThat(n % 7 != 3 || text.length() < 2).isTrue());
    AssertionError first = catchThrowableOfType(property::run, AssertionError.class);
    Matcher seed = SEED.matcher(first.getMessage());
    assertThat(seed.find()).isTrue();

    System.setProperty(Property.SEED, seed.group(1));
    AssertionError replayed = catchThrowableOfType(property::run, AssertionError.class);

    assertThat(replayed).hasMessageContaining("failed on try 1 of 1");
    assertThat(samples(replayed.getMessage())).isEqualTo(samples(first.getMessage()));
  }

  @Test
  void aGivenSeedThatHoldsRunsOnceAndPasses() {
    System.setProperty(Property.SEED, "42");
    AtomicInteger runs = new AtomicInteger();
    Property.forAll(500, Gen.ints(0, 10), n -> runs.incrementAndGet());
    assertThat(runs).hasValue(1);
  }

  @Test
  void anExceptionOtherThanAnAssertionFailsTheProperty() {
    assertThatThrownBy(
            () ->
                Property.forAll(
                    100,
                    Gen.ints(0, 100),
                    n -> {
                      if (n > 50) {
                        throw new IllegalStateException("too big: " + n);
                      }
                    }))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("  51\n")
        .hasRootCauseInstanceOf(IllegalStateException.class);
  }

  /** A counter; the property claims that it never reaches 3. */
  static final class Counter {
    int value;

    @Override
    public String toString() {
      return "counter " + value;
    }
  }

  @Test
  void aChainShrinksToTheStepsTheFailureNeedsAndNamesTheInvariant() {
    Gen<ActionChain<Counter>> chains =
        ActionChain.startWith(Counter::new)
            .withAction(
                1,
                Action.independent(Gen.just(ChainStep.of("increment", (Counter c) -> c.value++))))
            .withAction(
                1,
                Action.independent(Gen.just(ChainStep.of("decrement", (Counter c) -> c.value--))))
            .withAction(
                1,
                new Action<>() {
                  @Override
                  public boolean precondition(Counter counter) {
                    return counter.value > 0;
                  }

                  @Override
                  public Gen<ChainStep<Counter>> steps(Counter counter) {
                    return Gen.ints(1, counter.value)
                        .map(n -> ChainStep.of("halve by " + n, (Counter c) -> c.value -= n / 2));
                  }
                })
            .withMaxSteps(40);

    AssertionError failure =
        catchThrowableOfType(
            () ->
                Property.forAll(
                    100,
                    chains,
                    chain ->
                        chain
                            .withInvariant("below 3", c -> assertThat(c.value).isLessThan(3))
                            .run()),
            AssertionError.class);

    assertThat(failure.getMessage())
        .contains(
            "3 steps\n    1. increment\n    2. increment\n    3. increment\n    state: counter 3")
        .contains("invariant \"below 3\" broken after step 3");
  }

  /** The sample lines of a report, without the try number and the seed. */
  private static String samples(String message) {
    return message.substring(message.indexOf('\n'));
  }
}
