package dev.bulwark.core.engine;

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
abstract class HeldGrant extends GrantSignal implements QueuedRequest.Queue {

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
  private final LimitStats stats;
  private final Lease lease;

  @SuppressWarnings("unused") // written through CLOSED
  private volatile boolean closed;

  HeldGrant(
      long requestId,
      LeaseRenewer renewer,
      LimitStats stats,
      Lease.Kind kind,
      String name,
      String key,
      long leaseMillis) {
    super(requestId);
    this.renewer = renewer;
    this.stats = stats;
    this.lease = renewer == null ? null : new Lease(kind, name, key, requestId, leaseMillis);
  }

  /**
   * Starts renewing the lease, when the store's leases expire; a no-op when already renewed. A
   * queued request is kept alive too, so the queue of a store shared by several JVMs drops the
   * waiters of a JVM that died instead of handing them permits.
   */
  @Override
  public final void keepAlive() {
    if (renewer != null) {
      renewer.track(lease, stats);
    }
  }

  @Override
  public final void stopKeepingAlive() {
    if (renewer != null) {
      renewer.untrack(requestId);
    }
  }

  /**
   * Stops renewing and releases, the first time only.
   *
   * @return false when it had been released before
   */
  final boolean releaseOnce() {
    if (!CLOSED.compareAndSet(this, false, true)) {
      return false;
    }
    if (renewer != null) {
      renewer.untrack(requestId);
    }
    release();
    return true;
  }

  @Override
  public final void release() {
    try {
      releaseInStore();
    } catch (StoreException e) {
      stats.onStoreFailure();
      LOG.log(
          Level.WARNING,
          "Bulwark: could not release " + describe() + "; it is reclaimed when its lease runs out",
          e);
    }
  }

  abstract void releaseInStore();

  /** What is held, for log messages. */
  abstract String describe();
}
