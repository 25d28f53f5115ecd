package dev.bulwark.spi;

/**
 * Told by a store when it hands a permit or lock to a queued request (the release of one holder
 * grants the next), so the waiting thread starts without another round trip.
 */
@FunctionalInterface
public interface GrantListener {

  void granted(long requestId, long fencingToken);

  /**
   * The store's {@link BulwarkStore#wakeUpEpoch()} changed: notices may have been lost, and the
   * waiters that trusted the old value ask again. Called on any thread, after the change.
   */
  default void wakeUpsChanged() {}
}
