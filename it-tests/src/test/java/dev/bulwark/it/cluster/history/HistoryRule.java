package dev.bulwark.it.cluster.history;

/**
 * One property a run's {@link History} must have. A test declares the rules its scenario promises,
 * with their parameters; the {@link HistoryChecker} applies each to the whole history, exactly
 * (every record, no sampling).
 */
public interface HistoryRule {

  /** What the rule promises, with its parameters: the verdict's heading for it. */
  public String describe();

  /** Every violation of the rule in {@code history}, and what was measured on the way. */
  public RuleOutcome check(History history);
}
