package dev.bulwark.it.cluster;

import java.nio.file.Path;
import java.util.List;

/**
 * Checks a run's {@link History} against the rules its test declares, every rule over every record.
 * {@link #assertPassed} fails with the broken rules, their offending records and the path of the
 * history file, which the failed run keeps (see {@link KeptHistories}).
 */
final class HistoryChecker {

  private final List<HistoryRule> rules;

  HistoryChecker(List<HistoryRule> rules) {
    this.rules = List.copyOf(rules);
  }

  static HistoryChecker of(HistoryRule... rules) {
    return new HistoryChecker(List.of(rules));
  }

  Verdict check(History history) {
    return new Verdict(rules.stream().map(rule -> rule.check(history)).toList());
  }

  /** Fails, naming {@code file} (where the history was written), if {@code verdict} is broken. */
  static void assertPassed(Verdict verdict, Path file) {
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
