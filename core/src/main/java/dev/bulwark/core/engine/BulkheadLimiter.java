package dev.bulwark.core.engine;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.Permit;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.StoreException;

/**
 * One bulkhead: takes a permit from the store, queues when it may wait, and hands back a {@link
 * Permit} whose close releases it. Everything it needs is resolved when it is built.
 */
public final class BulkheadLimiter {

  private final BulkheadDefinition definition;
  private final PermitSpec spec;
  private final PermitStore store;
  private final StoreAccess access;
  private final BulkheadLimiter fallback;
  private final long waitNanos;
  private final LimitStats stats = new LimitStats();

  BulkheadLimiter(BulkheadDefinition definition, StoreAccess access, BulkheadLimiter fallback) {
    this.definition = definition;
    this.spec =
        new PermitSpec(
            definition.name(),
            definition.value(),
            definition.lease().toMillis(),
            definition.waitingTime().toMillis());
    this.store = access.store().permits();
    this.access = access;
    this.fallback = fallback;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public BulkheadDefinition definition() {
    return definition;
  }

  PermitSpec spec() {
    return spec;
  }

  public LimitStats stats() {
    return stats;
  }

  /** Takes a permit, waiting up to the definition's waiting time. */
  public Permit acquire() {
    return acquire(waitNanos);
  }

  /** Takes a permit only if one is free now; null otherwise. */
  public Permit tryAcquire() {
    try {
      return acquire(0);
    } catch (BulkheadFullException e) {
      return null;
    }
  }

  private Permit acquire(long maxWaitNanos) {
    HeldPermit permit = new HeldPermit(RequestIds.next());
    Grant grant;
    try {
      grant = QueuedRequest.acquire(permit, maxWaitNanos, access, stats);
    } catch (StoreException e) {
      return access.fallBackLocally(e, stats, definition.name(), "Bulkhead '" + spec.name() + "'")
          ? fallback.acquire(maxWaitNanos)
          : NoPermit.INSTANCE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stats.onRejected();
      throw new BulkheadFullException(
          definition.name(),
          "Interrupted while waiting for bulkhead '" + definition.name() + "'",
          e);
    }
    if (!grant.isGranted()) {
      stats.onRejected();
      throw new BulkheadFullException(
          definition.name(),
          "Bulkhead '"
              + definition.name()
              + "' is full: "
              + definition.value()
              + " calls running"
              + (maxWaitNanos > 0
                  ? ", no permit within " + definition.waitingTime().toMillis() + " ms"
                  : ""));
    }
    stats.onGranted();
    permit.keepAlive();
    return permit;
  }

  /** A held permit; also the signal its thread parks on while queued. */
  private final class HeldPermit extends HeldGrant implements Permit {

    HeldPermit(long requestId) {
      super(
          requestId,
          access.renewer(),
          stats,
          Lease.Kind.PERMIT,
          spec.name(),
          "",
          spec.leaseMillis());
    }

    @Override
    public void close() {
      releaseOnce();
    }

    @Override
    void releaseInStore() {
      store.release(spec, requestId);
    }

    @Override
    String describe() {
      return "a permit of bulkhead '" + spec.name() + "'";
    }

    @Override
    public Grant request(boolean mayQueue) {
      return store.acquire(spec, requestId, mayQueue);
    }

    @Override
    public Grant poll() {
      return store.poll(spec, requestId);
    }

    @Override
    public Grant cancel() {
      return store.cancel(spec, requestId);
    }
  }
}
