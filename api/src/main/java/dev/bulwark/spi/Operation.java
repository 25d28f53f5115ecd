package dev.bulwark.spi;

import dev.bulwark.LockMode;

/**
 * One operation on a bulkhead's or a lock key's requests, as a batch carries it (see {@link
 * PermitStore#apply} and {@link LockStore#apply}). Each keeps the meaning and the idempotence of
 * the single call of the same kind: an acquire or release sent twice changes nothing the second
 * time.
 *
 * @param kind what the operation does
 * @param requestId the request it is about, unique in this JVM
 * @param key the lock key; empty for a bulkhead
 * @param mode the lock mode an acquire asks for; {@link LockMode#WRITE} for a bulkhead
 * @param mayQueue for an acquire: whether the request may wait in the queue
 */
public record Operation(Kind kind, long requestId, String key, LockMode mode, boolean mayQueue) {

  /** The four things a caller does with a request; each is the single call of that name. */
  public enum Kind {
    ACQUIRE,
    POLL,
    CANCEL,
    RELEASE
  }

  public static Operation acquire(long requestId, boolean mayQueue) {
    return new Operation(Kind.ACQUIRE, requestId, "", LockMode.WRITE, mayQueue);
  }

  public static Operation acquire(String key, LockMode mode, long requestId, boolean mayQueue) {
    return new Operation(Kind.ACQUIRE, requestId, key, mode, mayQueue);
  }

  public static Operation poll(String key, long requestId) {
    return new Operation(Kind.POLL, requestId, key, LockMode.WRITE, false);
  }

  public static Operation cancel(String key, long requestId) {
    return new Operation(Kind.CANCEL, requestId, key, LockMode.WRITE, false);
  }

  public static Operation release(String key, long requestId) {
    return new Operation(Kind.RELEASE, requestId, key, LockMode.WRITE, false);
  }
}
