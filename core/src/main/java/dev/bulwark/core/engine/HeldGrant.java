package dev.bulwark.core.engine;

import dev.bulwark.LockPermit;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.StoreException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A permit or lock a call holds: its lease is kept alive while held, and it is released in the
 * store exactly once, however often and from whichever thread it is closed. A release the store
 * cannot take is logged, not thrown: the lease reclaims it.
 */
abstract class HeldGrant extends GrantSignal implements QueuedRequest.Queue, LockPermit {

  private static final Logger LOG = Logger.getLogger(HeldGrant.class.getName());
  private static final VarHandle CLOSED;

  static {
    try {
      CLOSED = MethodHandles.lookup().findVarHandle(HeldGrant.class, "closed", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final LeaseRenewer renewer;
  private final LimitEvents events;
  private final String name;
  private final String key;

  /**
   * What the renewer keeps alive; null when the store's leases do not expire (nothing to renew).
   */
  private final Lease lease;

  @SuppressWarnings("unused") // written through CLOSED
  private volatile boolean closed;

  /**
   * @param renewer null when the store's leases do not expire
   * @param key the lock key; empty for a bulkhead permit
   */
  HeldGrant(
      long requestId,
      LeaseRenewer renewer,
      LimitEvents events,
      Lease.Kind kind,
      String name,
      String key,
      long leaseMillis) {
    super(requestId, renewer == null ? 0 : leaseMillis);
    this.renewer = renewer;
    this.events = events;
    this.name = name;
    this.key = key;
    this.lease = renewer == null ? null : new Lease(kind, name, key, requestId, leaseMillis);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String key() {
    return key;
  }

  /**
   * Starts renewing the lease, when the store's leases expire; a no-op when already renewed. A
   * queued request is kept alive too, so the queue of a store shared by several JVMs drops the
   * waiters of a JVM that died instead of handing them permits.
   */
  @Override
  public final void keepAlive() {
    if (renewer != null) {
      renewer.track(lease, events);
    }
  }

  @Override
  public final void stopKeepingAlive() {
    if (renewer != null) {
      renewer.untrack(requestId);
    }
  }

  /** Stops renewing and releases, the first time only. */
  @Override
  public void close() {
    if (!CLOSED.compareAndSet(this, false, true)) {
      return;
    }
    stopKeepingAlive();
    release();
  }

  @Override
  public final void release() {
    try {
      if (!releaseInStore()) {
        events.expiredAtRelease(key);
        LOG.warning(
            () ->
                "Bulwark: "
                    + describe()
                    + " had run out of lease before its call ended; the call ran unguarded");
      }
    } catch (StoreException e) {
      events.storeFailed();
      LOG.log(
          Level.WARNING,
          "Bulwark: could not release " + describe() + "; it is reclaimed when its lease runs out",
          e);
    }
  }

  /**
   * Releases in the store.
   *
   * @return false when the store no longer held it
   */
  abstract boolean releaseInStore();

  /** What is held, for log messages. */
  private String describe() {
    return events + (key.isEmpty() ? "" : " key '" + key + "'");
  }
}
