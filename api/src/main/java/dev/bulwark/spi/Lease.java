package dev.bulwark.spi;

/**
 * A permit or lock held by a running call, as the lease renewer hands it to the store.
 *
 * @param kind what is held
 * @param name the limit's name
 * @param key the lock key; empty for a bulkhead permit
 * @param requestId the holder's request id
 * @param leaseMillis the lease to extend to, from the store's now
 */
public record Lease(Kind kind, String name, String key, long requestId, long leaseMillis) {

  public enum Kind {
    PERMIT,
    LOCK
  }
}
