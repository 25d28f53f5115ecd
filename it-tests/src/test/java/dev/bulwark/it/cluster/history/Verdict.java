package dev.bulwark.it.cluster.history;

import java.util.List;
import java.util.stream.Collectors;

/** What the {@link HistoryChecker} found: one {@link RuleOutcome} per rule, in declared order. */
public record Verdict(List<RuleOutcome> outcomes) {

  /** How many violations of one rule a message shows. */
  public static final int SHOWN_VIOLATIONS = 5;

  public Verdict {
    outcomes = List.copyOf(outcomes);
  }

  public boolean passed() {
    return outcomes.stream().allMatch(RuleOutcome::passed);
  }

  public List<RuleViolation> violations() {
    return outcomes.stream().flatMap(o -> o.violations().stream()).toList();
  }

  /** One line per rule: held or broken how often, and its figures. */
  public String summary() {
    return outcomes.stream()
        .map(
            o ->
                (o.passed() ? "held" : "BROKEN " + o.violations().size() + "×")
                    + ": "
                    + o.rule()
                    + " ("
                    + o.figures()
                    + ")")
        .collect(Collectors.joining("; "));
  }

  /** The broken rules, each with its first violations and their records. */
  public String failures() {
    return outcomes.stream()
        .filter(o -> !o.passed())
        .map(
            o ->
                o.rule()
                    + ": "
                    + o.violations().size()
                    + " violations ("
                    + o.figures()
                    + "), for example:\n"
                    + o.violations().stream()
                        .limit(SHOWN_VIOLATIONS)
                        .map(v -> "  - " + v)
                        .collect(Collectors.joining("\n")))
        .collect(Collectors.joining("\n"));
  }
}
