package dev.bulwark.spi;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The keyed read-write lock primitive of a store: per key, many readers or one writer, requests
 * queued first come, first served (so a queued writer holds back later readers), a fencing counter
 * per key that grows with every write grant.
 */
public interface LockStore {

  Grant acquire(LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue);

  Grant poll(LockSpec spec, String key, long requestId);

  /** Withdraws a queued request; {@link Grant#GRANTED} when it had been granted meanwhile. */
  Grant cancel(LockSpec spec, String key, long requestId);

  /**
   * Releases a held lock and grants what the queue's head allows. Releasing what is not held
   * changes nothing.
   *
   * @return false when the store no longer held it (its lease had run out, or it was released)
   */
  boolean release(LockSpec spec, String key, long requestId);

  /**
   * Applies {@code operations} on the keys of one lock name, one by one in the given order, each
   * with the answer it would get sent alone in that order, as {@link PermitStore#apply} does for a
   * bulkhead. A store whose keys live apart (a Redis Cluster's slots) may apply the operations of
   * each key (or each group of keys it can change atomically) as one step and send those steps
   * together: operations on different keys never decide each other.
   *
   * @return one answer per operation, in order
   * @throws StoreException when a step failed: no answer of the batch is known
   */
  default List<Grant> apply(LockSpec spec, List<Operation> operations) {
    List<Grant> answers = new ArrayList<>(operations.size());
    for (Operation op : operations) {
      answers.add(
          switch (op.kind()) {
            case ACQUIRE -> acquire(spec, op.key(), op.mode(), op.requestId(), op.mayQueue());
            case POLL -> poll(spec, op.key(), op.requestId());
            case CANCEL -> cancel(spec, op.key(), op.requestId());
            case RELEASE ->
                release(spec, op.key(), op.requestId()) ? Grant.GRANTED : Grant.REJECTED;
          });
    }
    return answers;
  }

  /**
   * {@link #apply} sent without holding the calling thread for the round trip, as {@link
   * PermitStore#applyAsync} says. The default applies it on the calling thread.
   */
  default CompletionStage<List<Grant>> applyAsync(LockSpec spec, List<Operation> operations) {
    try {
      return CompletableFuture.completedFuture(apply(spec, operations));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Reads the live writer, readers and queued requests of {@code key}, for operators; changes
   * nothing. The default, for a store that does not offer it, throws.
   *
   * @throws UnsupportedOperationException when the store cannot be inspected
   */
  default LockKeySnapshot inspect(LockSpec spec, String key) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot inspect locks");
  }
}
