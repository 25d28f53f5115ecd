package dev.bulwark.tck.modelcheck;

import java.util.List;

/**
 * A batch whose reply was lost: the store applied its steps up to the one whose reply was lost (all
 * of them when {@code whole}), the JVM heard a failure for every operation in it. Its callers are
 * {@linkplain Phase#PENDING pending} until the batch is re-sent whole or given up.
 *
 * @param jvm the JVM that sent it
 * @param entries its operations, in the order sent
 * @param ranAt when it ran
 * @param giveUp the give-up the store sends after the loss, not yet run; null when it sends none
 * @param whole whether the store applied every operation of the batch (the reply of its last step
 *     was lost), not only those up to a step in the middle
 * @param untouched whether the store's contents and the clock are still as the batch left them: a
 *     re-send now must change nothing
 */
public record LostBatch(
    int jvm,
    List<BatchEntry> entries,
    long ranAt,
    GiveUp giveUp,
    boolean whole,
    boolean untouched) {

  public LostBatch {
    entries = List.copyOf(entries);
  }

  LostBatch touched() {
    return untouched ? new LostBatch(jvm, entries, ranAt, giveUp, whole, false) : this;
  }

  String canonical(long now, long lease) {
    return jvm
        + entries.toString()
        + "@"
        + Times.ahead(ranAt + lease, now)
        + (giveUp == null ? "" : "g")
        + (whole ? "w" : "p")
        + (untouched ? "u" : "");
  }
}
