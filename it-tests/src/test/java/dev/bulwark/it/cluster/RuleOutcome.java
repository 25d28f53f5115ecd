package dev.bulwark.it.cluster;

import java.util.List;

/**
 * What one {@link HistoryRule} found in a history.
 *
 * @param rule the rule's description
 * @param figures what the rule measured on the way (records looked at, pairs compared …)
 * @param violations every place the history breaks the rule, with its records
 */
record RuleOutcome(String rule, String figures, List<RuleViolation> violations) {

  RuleOutcome {
    violations = List.copyOf(violations);
  }

  boolean passed() {
    return violations.isEmpty();
  }
}
