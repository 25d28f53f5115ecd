package dev.bulwark.it.cluster.history;

import dev.bulwark.it.cluster.harness.KeptHistories;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks a run's {@link History} against the rules its test declares, every rule over every record.
 * {@link #assertPassed} fails with the broken rules, their offending records and the path of the
 * history file, which the failed run keeps (see {@link KeptHistories}).
 */
public final class HistoryChecker {

  private final List<HistoryRule> rules;

  public HistoryChecker(List<HistoryRule> rules) {
    this.rules = List.copyOf(rules);
  }

  public static HistoryChecker of(HistoryRule... rules) {
    return new HistoryChecker(List.of(rules));
  }

  public Verdict check(History history) {
    return new Verdict(rules.stream().map(rule -> rule.check(history)).toList());
  }

  /** Fails, naming {@code file} (where the history was written), if {@code verdict} is broken. */
  public static void assertPassed(Verdict verdict, Path file) {
    if (!verdict.passed()) {
      throw new AssertionError(
          "the run's history breaks "
              + verdict.outcomes().stream().filter(o -> !o.passed()).count()
              + " of "
              + verdict.outcomes().size()
              + " rules (history kept at "
              + file.toAbsolutePath()
              + "):\n"
              + verdict.failures());
    }
  }
}
