package dev.bulwark.it.cluster.history;

import java.util.List;

/**
 * What one {@link HistoryRule} found in a history.
 *
 * @param rule the rule's description
 * @param figures what the rule measured on the way (records looked at, pairs compared …)
 * @param violations every place the history breaks the rule, with its records
 */
public record RuleOutcome(String rule, String figures, List<RuleViolation> violations) {

  public RuleOutcome {
    violations = List.copyOf(violations);
  }

  public boolean passed() {
    return violations.isEmpty();
  }
}
