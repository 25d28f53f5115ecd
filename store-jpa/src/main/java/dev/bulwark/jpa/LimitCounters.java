package dev.bulwark.jpa;

import java.util.List;

/**
 * The two counters on a bulkhead's or lock name's row, as one transaction reads and moves them: the
 * name's last write token and the next arrival number. Shared by the steps on every key a batch
 * touches, since both belong to the name and not to a key, and written once when the transaction
 * ends, only if one moved.
 */
final class LimitCounters {

  private final long storedFencing;
  private final long storedNextSeq;
  private long fencing;
  private long nextSeq;

  LimitCounters(long fencing, long nextSeq) {
    this.storedFencing = fencing;
    this.fencing = fencing;
    this.storedNextSeq = nextSeq;
    this.nextSeq = nextSeq;
  }

  /** The last write token given out under the name. */
  long fencing() {
    return fencing;
  }

  /** Takes the name's next write token. */
  long nextFencingToken() {
    return ++fencing;
  }

  /** The arrival number the next queued request takes, without taking it. */
  long nextSeq() {
    return nextSeq;
  }

  /** Takes the next arrival number. */
  long takeSeq() {
    return nextSeq++;
  }

  /** The statement that writes the counters, none when neither moved. */
  List<Sql> writes(ClaimSql sql, String limitId) {
    if (fencing == storedFencing && nextSeq == storedNextSeq) {
      return List.of();
    }
    return List.of(sql.counters(limitId, fencing, nextSeq));
  }
}
