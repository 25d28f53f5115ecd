package dev.bulwark.tck.property;

import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Runs a property as part of a JUnit test: {@code tries} samples, each from a seed of its own; the
 * first sample that throws is shrunk and the test fails with an {@link AssertionError} that names
 * the try's seed, the shrunk sample and the original one.
 *
 * <p>System properties: {@value #SCALE} multiplies every property's tries (1 by default; a longer
 * run is {@code -Dbulwark-properties.scale=20}); {@value #SEED} runs the one sample of that seed
 * instead of random ones, which replays a failure (give it with {@code -Dtest=Class#method}, since
 * every property would run that seed); {@value #SHRINK_SECONDS} bounds the time spent shrinking (30
 * by default, 0 reports the failure as found).
 */
public final class Property {

  /** The system property that scales every property's tries. */
  public static final String SCALE = "bulwark-properties.scale";

  /** The system property that replays the try of the seed it gives. */
  public static final String SEED = "bulwark-properties.seed";

  /** The system property that bounds shrinking, in seconds. */
  public static final String SHRINK_SECONDS = "bulwark-properties.shrink-seconds";

  private static final int MOST_SHRINK_RUNS = 10_000;

  private static final ThreadLocal<Map<String, Map<String, Integer>>> STATISTICS =
      new ThreadLocal<>();

  private Property() {}

  /** A property of one generated value. */
  public static <A> void forAll(int tries, Gen<A> a, Consumer<A> property) {
    check(tries, draws -> sample(property, a.next(draws)));
  }

  /** A property of two generated values, drawn in order. */
  public static <A, B> void forAll(int tries, Gen<A> a, Gen<B> b, BiConsumer<A, B> property) {
    check(
        tries,
        draws -> {
          A first = a.next(draws);
          B second = b.next(draws);
          return new Sample(() -> property.accept(first, second), List.of(first, second));
        });
  }

  /** A property of three generated values, drawn in order. */
  public static <A, B, C> void forAll(
      int tries, Gen<A> a, Gen<B> b, Gen<C> c, TriConsumer<A, B, C> property) {
    check(
        tries,
        draws -> {
          A first = a.next(draws);
          B second = b.next(draws);
          C third = c.next(draws);
          return new Sample(
              () -> property.accept(first, second, third), List.of(first, second, third));
        });
  }

  /** A property of three values. */
  @FunctionalInterface
  public interface TriConsumer<A, B, C> {
    void accept(A a, B b, C c);
  }

  /**
   * Counts {@code values} (joined as one key) under {@code label} for the property running on this
   * thread; after the property, the counts are printed with their shares, to show what the tries
   * covered.
   */
  public static void collect(String label, Object... values) {
    Map<String, Map<String, Integer>> statistics = STATISTICS.get();
    if (statistics != null) {
      StringJoiner key = new StringJoiner(" ");
      Arrays.stream(values).map(String::valueOf).forEach(key::add);
      statistics
          .computeIfAbsent(label, l -> new LinkedHashMap<>())
          .merge(key.toString(), 1, Integer::sum);
    }
  }

  /** The tries a property runs: its own count times {@value #SCALE}. */
  public static int scaled(int tries) {
    return Math.max(1, Math.multiplyExact(tries, scale()));
  }

  private static <A> Sample sample(Consumer<A> property, A value) {
    return new Sample(() -> property.accept(value), List.of(value));
  }

  /** A generated sample, ready to be checked. */
  private record Sample(Runnable check, List<Object> values) {
    String describe() {
      StringJoiner joiner = new StringJoiner("\n  ", "  ", "");
      values.forEach(v -> joiner.add(String.valueOf(v)));
      return joiner.toString();
    }
  }

  /** How one run of a sample ended: {@code failure} null when it held. */
  private record Run(long[] choices, String sample, Throwable failure, boolean unusable) {}

  private interface Trial {
    Sample build(Draws draws);
  }

  private static void check(int baseTries, Trial trial) {
    String where = caller();
    Map<String, Map<String, Integer>> statistics = new LinkedHashMap<>();
    STATISTICS.set(statistics);
    try {
      Long given = seed();
      int tries = given != null ? 1 : scaled(baseTries);
      SplittableRandom seeds = new SplittableRandom(ThreadLocalRandom.current().nextLong());
      for (int t = 1; t <= tries; t++) {
        long seed = given != null ? given : seeds.nextLong();
        Run run = run(trial, Draws.fresh(seed));
        if (run.failure() != null) {
          STATISTICS.remove();
          throw failure(where, t, tries, seed, run, shrink(trial, run));
        }
      }
      if (given != null) {
        System.out.println(where + ": the sample of seed " + given + " holds");
      }
      print(where, statistics);
    } finally {
      STATISTICS.remove();
    }
  }

  private static Run run(Trial trial, Draws draws) {
    Sample sample = null;
    try {
      sample = trial.build(draws);
      sample.check().run();
      return new Run(draws.choices(), sample.describe(), null, false);
    } catch (Draws.Unusable e) {
      return new Run(draws.choices(), null, e, true);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      String described = sample == null ? "  (failed while generating it)" : sample.describe();
      return new Run(draws.choices(), described, e, false);
    }
  }

  /** What shrinking found: the simplest failing run, and how many runs it took. */
  private record Shrunk(Run run, int runs, boolean cutShort) {}

  /**
   * Looks for a simpler sequence of choices that still fails: fewer choices first (whole elements
   * and steps removed), then smaller ones (each lowered to 0, else halved toward the smallest that
   * fails). A candidate counts only when it fails with a shorter, or as long and lexicographically
   * smaller, sequence, so shrinking ends.
   */
  private static Shrunk shrink(Trial trial, Run failed) {
    long deadline = System.nanoTime() + shrinkTime().toNanos();
    Shrinker shrinker = new Shrinker(trial, failed, deadline);
    boolean better = true;
    while (better && shrinker.goesOn()) {
      better = false;
      for (int chunk : new int[] {8, 4, 2, 1}) {
        for (int i = shrinker.best.choices().length - chunk; i >= 0 && shrinker.goesOn(); i--) {
          long[] current = shrinker.best.choices();
          if (i + chunk <= current.length) {
            long[] candidate = new long[current.length - chunk];
            System.arraycopy(current, 0, candidate, 0, i);
            System.arraycopy(current, i + chunk, candidate, i, current.length - i - chunk);
            better |= shrinker.tryCandidate(candidate);
          }
        }
      }
      for (int i = 0; i < shrinker.best.choices().length && shrinker.goesOn(); i++) {
        long value = shrinker.best.choices()[i];
        if (value == 0 || shrinker.tryCandidate(with(shrinker.best.choices(), i, 0))) {
          better |= value != 0;
          continue;
        }
        // value fails, 0 does not: halve the gap while the shape before i stays
        long holds = 0;
        long fails = value;
        while (fails - holds > 1 && shrinker.goesOn()) {
          long middle = holds + (fails - holds) / 2;
          long[] current = shrinker.best.choices();
          if (i < current.length && shrinker.tryCandidate(with(current, i, middle))) {
            fails = middle;
            better = true;
          } else {
            holds = middle;
          }
        }
      }
    }
    return new Shrunk(shrinker.best, shrinker.runs, !shrinker.goesOn());
  }

  private static long[] with(long[] choices, int index, long value) {
    long[] copy = choices.clone();
    copy[index] = value;
    return copy;
  }

  private static final class Shrinker {
    private final Trial trial;
    private final long deadline;
    private Run best;
    private int runs;

    Shrinker(Trial trial, Run failed, long deadline) {
      this.trial = trial;
      this.best = failed;
      this.deadline = deadline;
    }

    boolean goesOn() {
      return runs < MOST_SHRINK_RUNS && System.nanoTime() - deadline < 0;
    }

    boolean tryCandidate(long[] candidate) {
      runs++;
      Run run = run(trial, Draws.replay(candidate));
      if (run.failure() == null || run.unusable() || !simpler(run.choices(), best.choices())) {
        return false;
      }
      best = run;
      return true;
    }

    private static boolean simpler(long[] a, long[] b) {
      return a.length != b.length ? a.length < b.length : Arrays.compare(a, b) < 0;
    }
  }

  private static AssertionError failure(
      String where, int t, int tries, long seed, Run original, Shrunk shrunk) {
    StringBuilder message = new StringBuilder();
    message
        .append("Property ")
        .append(where)
        .append(" failed on try ")
        .append(t)
        .append(" of ")
        .append(tries)
        .append(", seed ")
        .append(seed)
        .append("; replay it with -Dtest='")
        .append(where)
        .append("' -D")
        .append(SEED)
        .append('=')
        .append(seed)
        .append('\n');
    Run simplest = shrunk.run();
    if (simplest != original) {
      message
          .append("Shrunk sample (")
          .append(shrunk.runs())
          .append(" runs of shrinking")
          .append(shrunk.cutShort() ? ", cut short by -D" + SHRINK_SECONDS : "")
          .append("):\n")
          .append(simplest.sample())
          .append("\nfails with: ")
          .append(simplest.failure())
          .append('\n');
    }
    message
        .append("Original sample:\n")
        .append(original.sample())
        .append("\nfailed with: ")
        .append(original.failure());
    String text = message.toString();
    System.err.println(text);
    AssertionError error = new AssertionError(text, simplest.failure());
    if (simplest != original) {
      error.addSuppressed(original.failure());
    }
    return error;
  }

  /**
   * The test method that runs the property, for the report: {@code Class#method}, from {@link
   * TestNames} when the suite registered it, else from the call stack (the class left open when the
   * method is declared by an abstract class).
   */
  private static String caller() {
    String registered = TestNames.current();
    if (registered != null) {
      return registered;
    }
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
        .walk(
            frames ->
                frames
                    .filter(f -> f.getDeclaringClass().getPackage() != Property.class.getPackage())
                    .findFirst()
                    .map(Property::testName)
                    .orElse("<test class>#<test method>"));
  }

  private static String testName(StackWalker.StackFrame frame) {
    Class<?> type = frame.getDeclaringClass();
    String method = frame.getMethodName();
    // a lambda's frame is named after its enclosing method: lambda$<method>$<n>
    if (method.startsWith("lambda$")) {
      int end = method.indexOf('$', "lambda$".length());
      method = method.substring("lambda$".length(), end < 0 ? method.length() : end);
    }
    String className =
        Modifier.isAbstract(type.getModifiers())
            ? "<subclass of " + type.getSimpleName() + ">"
            : type.getSimpleName();
    return className + "#" + method;
  }

  private static void print(String where, Map<String, Map<String, Integer>> statistics) {
    statistics.forEach(
        (label, counts) -> {
          int total = counts.values().stream().mapToInt(Integer::intValue).sum();
          StringBuilder text = new StringBuilder();
          text.append(where).append(", ").append(label).append(" (").append(total).append("):");
          List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
          entries.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
          for (Map.Entry<String, Integer> entry : entries) {
            text.append(
                String.format(
                    "%n  %-24s %6d  %5.1f %%",
                    entry.getKey(), entry.getValue(), 100.0 * entry.getValue() / total));
          }
          System.out.println(text);
        });
  }

  static int scale() {
    String value = System.getProperty(SCALE, "1").trim();
    try {
      int scale = Integer.parseInt(value);
      if (scale > 0) {
        return scale;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "-D" + SCALE + "=" + value + " is not a positive whole number");
  }

  private static Long seed() {
    String value = System.getProperty(SEED);
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + SEED + "=" + value + " is not a long", e);
    }
  }

  private static Duration shrinkTime() {
    String value = System.getProperty(SHRINK_SECONDS, "30").trim();
    try {
      long seconds = Long.parseLong(value);
      if (seconds >= 0) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "-D" + SHRINK_SECONDS + "=" + value + " is not a whole number of seconds");
  }
}
