package dev.bulwark.it.cluster.history;

import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Assertions over thousands of records that fail with a count and a few examples, not with every
 * record of the run.
 */
public final class Violations {

  private static final int EXAMPLES = 5;

  private Violations() {}

  /** Fails when {@code found} is not empty, naming how many and the first few. */
  public static void none(String what, Collection<?> found) {
    if (!found.isEmpty()) {
      throw new AssertionError(
          what
              + ": "
              + found.size()
              + ", for example:\n  "
              + found.stream()
                  .limit(EXAMPLES)
                  .map(String::valueOf)
                  .collect(Collectors.joining("\n  ")));
    }
  }

  /** Fails when a call of {@code calls} does not match {@code rule}. */
  public static void all(String what, List<CallRecord> calls, Predicate<CallRecord> rule) {
    none(what + " (calls that break it)", calls.stream().filter(rule.negate()).toList());
  }
}
