package dev.bulwark.core.chain;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.core.batch.BatchQueue;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.lease.StoreRequest;
import dev.bulwark.core.waiting.AsyncWait;
import dev.bulwark.core.waiting.QueuedRequest;
import dev.bulwark.core.waiting.StartOrder;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The store link of a bulkhead: takes a permit, queueing first come, first served when the call may
 * wait, and returns it as the call's permit, whose close releases it in the store.
 */
final class PermitLink implements LimitLink {

  private final BulkheadDefinition definition;
  private final PermitSpec spec;
  private final PermitStore store;
  private final StoreAccess access;
  private final LimitEvents events;
  private final StartOrder order;

  /** The bulkhead's batch queue when the store batches, else null. */
  private final BatchQueue<Operation, Grant> queue;

  PermitLink(
      BulkheadDefinition definition, PermitSpec spec, StoreAccess access, LimitEvents events) {
    this.definition = definition;
    this.spec = spec;
    this.store = access.store().permits();
    this.access = access;
    this.events = events;
    this.order = new StartOrder(access.async());
    this.queue =
        access.batched() ? access.batches().queue(batch -> store.applyAsync(spec, batch)) : null;
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    HeldPermit permit = new HeldPermit(RequestIds.next());
    Grant grant;
    try {
      grant = QueuedRequest.acquire(permit, call.maxWaitNanos(), access, events);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BulkheadFullException(
          definition.name(),
          "Interrupted while waiting for bulkhead '" + definition.name() + "'",
          e);
    }
    return admitted(permit, grant, call.maxWaitNanos());
  }

  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    HeldPermit permit = new HeldPermit(RequestIds.next());
    return AsyncWait.acquire(permit, call.maxWaitNanos(), access, events, caller, order)
        .thenApply(grant -> admitted(permit, grant, call.maxWaitNanos()));
  }

  /** The store's final answer made the call's permit, or the bulkhead's rejection. */
  private LockPermit admitted(HeldPermit permit, Grant grant, long maxWaitNanos) {
    if (!grant.isGranted()) {
      throw new BulkheadFullException(
          definition.name(),
          "Bulkhead '"
              + definition.name()
              + "' is full: "
              + definition.value()
              + " calls running"
              + (maxWaitNanos > 0
                  ? ", no permit within " + TimeUnit.NANOSECONDS.toMillis(maxWaitNanos) + " ms"
                  : ""));
    }
    permit.keepAlive();
    return permit;
  }

  /** A held permit; also the signal its thread parks on while queued. */
  private final class HeldPermit extends StoreRequest {

    HeldPermit(long requestId) {
      super(
          requestId,
          access.renewer(),
          queue,
          access.postsReleases(),
          events,
          Lease.Kind.PERMIT,
          spec.name(),
          "",
          spec.leaseMillis());
    }

    @Override
    public LockMode mode() {
      return LockMode.WRITE;
    }

    @Override
    public long fencingToken() {
      return 0;
    }

    @Override
    protected Operation acquisition(boolean mayQueue) {
      return Operation.acquire(requestId, mayQueue);
    }

    @Override
    protected Grant sendAlone(Operation operation) {
      return switch (operation.kind()) {
        case ACQUIRE -> store.acquire(spec, requestId, operation.mayQueue());
        case POLL -> store.poll(spec, requestId);
        case CANCEL -> store.cancel(spec, requestId);
        case RELEASE -> store.release(spec, requestId) ? Grant.GRANTED : Grant.REJECTED;
      };
    }
  }
}
