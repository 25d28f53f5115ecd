package dev.bulwark.spi;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;

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
   * Reads the live writer, readers and queued requests of {@code key}, for operators; changes
   * nothing. The default, for a store that does not offer it, throws.
   *
   * @throws UnsupportedOperationException when the store cannot be inspected
   */
  default LockKeySnapshot inspect(LockSpec spec, String key) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot inspect locks");
  }
}
