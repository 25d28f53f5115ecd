package dev.bulwark.tck.property;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generator of values from a try's {@link Draws}. Each one shrinks toward the simplest value it
 * can make: a range toward its lower end, a choice toward its first option, a list toward fewer and
 * simpler elements. Combine generators by drawing from each in a lambda: {@code d -> new
 * Call(gaps.next(d), waits.next(d))}.
 */
@FunctionalInterface
public interface Gen<T> {

  /** Builds one value from the draws. */
  T next(Draws draws);

  default <R> Gen<R> map(Function<? super T, ? extends R> mapper) {
    return draws -> mapper.apply(next(draws));
  }

  /** A generator chosen by this one's value (a list of calls sized by a generated limit). */
  default <R> Gen<R> flatMap(Function<? super T, Gen<R>> mapper) {
    return draws -> mapper.apply(next(draws)).next(draws);
  }

  /** Only the values that pass {@code test}: drawn again until one does (10,000 times at most). */
  default Gen<T> filter(Predicate<? super T> test) {
    return draws -> {
      for (int attempt = 0; attempt < 10_000; attempt++) {
        T value = next(draws);
        if (test.test(value)) {
          return value;
        }
      }
      String message = "a filter rejected 10,000 values in a row";
      if (draws.replaying()) {
        throw new Draws.Unusable(message);
      }
      throw new IllegalStateException(message + ": the generator rarely meets it");
    };
  }

  /** Lists of {@code minSize} to {@code maxSize} of this generator's values. */
  default Gen<List<T>> list(int minSize, int maxSize) {
    if (minSize < 0 || maxSize < minSize) {
      throw new IllegalArgumentException("list sizes " + minSize + " to " + maxSize);
    }
    return draws -> {
      int length = draws.freshLength(minSize, maxSize);
      List<T> values = new ArrayList<>();
      while (values.size() < maxSize) {
        if (values.size() >= minSize && !draws.more(values.size() < length)) {
          break;
        }
        values.add(next(draws));
      }
      return values;
    };
  }

  /** Any long from {@code min} to {@code max}, both included. */
  static Gen<Long> longs(long min, long max) {
    if (max < min) {
      throw new IllegalArgumentException("longs from " + min + " to " + max);
    }
    long span = max - min;
    if (span < 0) {
      throw new IllegalArgumentException(
          "a range wider than Long.MAX_VALUE: " + min + " to " + max);
    }
    return draws -> min + draws.biased(span);
  }

  /** Any int from {@code min} to {@code max}, both included. */
  static Gen<Integer> ints(int min, int max) {
    return longs(min, max).map(Long::intValue);
  }

  static <T> Gen<T> just(T value) {
    return draws -> value;
  }

  /** One of {@code values}, each as likely; shrinks toward the first. */
  static <T> Gen<T> of(List<T> values) {
    List<T> options = List.copyOf(values);
    if (options.isEmpty()) {
      throw new IllegalArgumentException("nothing to choose from");
    }
    return draws -> options.get((int) draws.uniform(options.size() - 1));
  }

  @SafeVarargs
  static <T> Gen<T> of(T... values) {
    return of(List.of(values));
  }

  /** One of the enum's constants, each as likely. */
  static <E extends Enum<E>> Gen<E> of(Class<E> type) {
    return of(List.of(type.getEnumConstants()));
  }

  /** A value from one of {@code gens}, each as likely; shrinks toward the first. */
  @SafeVarargs
  static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
    List<Weighted<T>> choices = new ArrayList<>();
    for (Gen<? extends T> gen : gens) {
      choices.add(new Weighted<>(1, gen::next));
    }
    return frequency(choices);
  }

  /** A value from one of the generators, chosen in proportion to its weight. */
  @SafeVarargs
  static <T> Gen<T> frequency(Weighted<T>... choices) {
    return frequency(List.of(choices));
  }

  /** A value from one of the generators, chosen in proportion to its weight. */
  static <T> Gen<T> frequency(List<Weighted<T>> choices) {
    List<Weighted<T>> options = List.copyOf(choices);
    return draws -> pick(draws, options).gen().next(draws);
  }

  /** A string of {@code minLength} to {@code maxLength} characters of {@code alphabet}. */
  static Gen<String> strings(String alphabet, int minLength, int maxLength) {
    Gen<Character> chars = of(alphabet.chars().mapToObj(c -> (char) c).distinct().toList());
    return chars
        .list(minLength, maxLength)
        .map(
            list -> {
              StringBuilder text = new StringBuilder(list.size());
              list.forEach(text::append);
              return text.toString();
            });
  }

  /** The characters from {@code first} to {@code last}, for an alphabet. */
  static String range(char first, char last) {
    StringBuilder chars = new StringBuilder();
    for (char c = first; c <= last; c++) {
      chars.append(c);
    }
    return chars.toString();
  }

  /** A generator and how often to choose it against the others. */
  record Weighted<T>(int weight, Gen<T> gen) {
    public Weighted {
      if (weight < 1) {
        throw new IllegalArgumentException("weight " + weight);
      }
      Objects.requireNonNull(gen);
    }

    public static <T> Weighted<T> of(int weight, Gen<T> gen) {
      return new Weighted<>(weight, gen);
    }

    /** A constant value with a weight. */
    public static <T> Weighted<T> value(int weight, T value) {
      return new Weighted<>(weight, just(value));
    }
  }

  /** One of {@code options}, in proportion to their weights. */
  static <W extends Weighted<?>> W pick(Draws draws, List<W> options) {
    if (options.isEmpty()) {
      throw new IllegalArgumentException("nothing to choose from");
    }
    long total = options.stream().mapToLong(Weighted::weight).sum();
    long chosen = draws.uniform(total - 1);
    for (W option : options) {
      chosen -= option.weight();
      if (chosen < 0) {
        return option;
      }
    }
    throw new AssertionError("weights add up to " + total);
  }
}
