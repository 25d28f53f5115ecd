package dev.bulwark.tck.modelcheck;

import dev.bulwark.spi.Grant;
import java.util.List;

/**
 * A batch in flight: the store applied it (the engine pipelines a JVM's batches on a limit, sending
 * the next before the reply of the one before is read), and its JVM has not read the reply yet.
 * Replies come in the order the batches were sent; until its reply is read (or lost) every caller
 * of the batch is {@linkplain Phase#SENT sent}.
 *
 * @param jvm the JVM that sent it
 * @param entries its operations, in the order sent
 * @param answers what the store answered, one per entry: what the reply will tell
 * @param ranAt when the store applied it
 * @param untouched whether the store's contents and the clock are still as the batch left them: if
 *     its reply is lost now, a re-send must change nothing ({@link LostBatch#untouched})
 */
public record SentBatch(
    int jvm, List<BatchEntry> entries, List<Grant> answers, long ranAt, boolean untouched) {

  public SentBatch {
    entries = List.copyOf(entries);
    answers = List.copyOf(answers);
  }

  SentBatch touched() {
    return untouched ? new SentBatch(jvm, entries, answers, ranAt, false) : this;
  }

  /** Outcomes only: a token's value is the store's, compared by the invariants, not the callers. */
  String canonical(long now, long lease) {
    StringBuilder out = new StringBuilder().append(jvm).append(entries);
    for (Grant answer : answers) {
      out.append(answer.outcome().name().charAt(0));
    }
    return out.append('@')
        .append(Times.ahead(ranAt + lease, now))
        .append(untouched ? "u" : "")
        .toString();
  }
}
