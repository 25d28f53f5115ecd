package dev.bulwark.it.cluster.history;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One place where a history breaks a rule: what is wrong, and the records that prove it.
 *
 * @param what the breach in words, with its instants and figures
 * @param records the offending calls
 */
public record RuleViolation(String what, List<CallRecord> records) {

  /** How many records a message shows of one violation. */
  public static final int SHOWN_RECORDS = 8;

  public RuleViolation {
    records = List.copyOf(records);
  }

  @Override
  public String toString() {
    String shown =
        records.stream()
            .limit(SHOWN_RECORDS)
            .map(r -> "      " + r)
            .collect(Collectors.joining("\n"));
    String more =
        records.size() > SHOWN_RECORDS
            ? "\n      … " + (records.size() - SHOWN_RECORDS) + " more records"
            : "";
    return what + (records.isEmpty() ? "" : "\n" + shown + more);
  }
}
