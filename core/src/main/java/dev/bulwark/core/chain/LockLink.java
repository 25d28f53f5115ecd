package dev.bulwark.core.chain;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.core.batch.KeyedBatchQueues;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.lease.StoreRequest;
import dev.bulwark.core.waiting.AsyncWait;
import dev.bulwark.core.waiting.QueuedRequest;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Operation;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The store link of a keyed lock: takes the key in the requested mode, queueing first come, first
 * served when the call may wait, and returns the lock with its fencing token.
 */
final class LockLink implements LimitLink {

  private final LockDefinition definition;
  private final LockSpec spec;
  private final LockStore store;
  private final StoreAccess access;
  private final LimitEvents events;

  /** A batch queue per lock key when the store batches, else null. */
  private final KeyedBatchQueues<String, Operation, Grant> queues;

  LockLink(LockDefinition definition, LockSpec spec, StoreAccess access, LimitEvents events) {
    this.definition = definition;
    this.spec = spec;
    this.store = access.store().locks();
    this.access = access;
    this.events = events;
    this.queues =
        access.batched()
            ? access.batches().keyed(key -> batch -> store.applyAsync(spec, batch))
            : null;
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    HeldLock lock = new HeldLock(RequestIds.next(), call.key(), call.mode());
    Grant grant;
    try {
      grant = QueuedRequest.acquire(lock, call.maxWaitNanos(), access, events);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LockTimeoutException(
          definition.name(),
          call.key(),
          "Interrupted while waiting for lock " + describe(call.key()),
          e);
    }
    return admitted(lock, grant, call.maxWaitNanos());
  }

  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    HeldLock lock = new HeldLock(RequestIds.next(), call.key(), call.mode());
    return AsyncWait.acquire(lock, call.maxWaitNanos(), access, events, caller, null)
        .thenApply(grant -> admitted(lock, grant, call.maxWaitNanos()));
  }

  /** The store's final answer made the call's lock, with its fencing token, or the rejection. */
  private LockPermit admitted(HeldLock lock, Grant grant, long maxWaitNanos) {
    if (!grant.isGranted()) {
      throw new LockTimeoutException(
          definition.name(),
          lock.key(),
          "Lock "
              + describe(lock.key())
              + " ("
              + lock.mode
              + ") not granted"
              + (maxWaitNanos > 0
                  ? " within " + TimeUnit.NANOSECONDS.toMillis(maxWaitNanos) + " ms"
                  : ""));
    }
    lock.fencingToken = grant.fencingToken();
    lock.keepAlive();
    return lock;
  }

  private String describe(String key) {
    return "'" + definition.name() + "'" + (key.isEmpty() ? "" : " key '" + key + "'");
  }

  /** A lock held by this call; also the signal its thread parks on while queued. */
  private final class HeldLock extends StoreRequest {

    private final LockMode mode;
    private long fencingToken;

    HeldLock(long requestId, String key, LockMode mode) {
      super(
          requestId,
          access.renewer(),
          queues == null ? null : queues.queue(key),
          access.postsReleases(),
          events,
          Lease.Kind.LOCK,
          spec.name(),
          key,
          spec.leaseMillis());
      this.mode = mode;
    }

    @Override
    public LockMode mode() {
      return mode;
    }

    @Override
    public long fencingToken() {
      return fencingToken;
    }

    @Override
    protected Operation acquisition(boolean mayQueue) {
      return Operation.acquire(key(), mode, requestId, mayQueue);
    }

    @Override
    protected Grant sendAlone(Operation operation) {
      return switch (operation.kind()) {
        case ACQUIRE -> store.acquire(spec, key(), mode, requestId, operation.mayQueue());
        case POLL -> store.poll(spec, key(), requestId);
        case CANCEL -> store.cancel(spec, key(), requestId);
        case RELEASE -> store.release(spec, key(), requestId) ? Grant.GRANTED : Grant.REJECTED;
      };
    }
  }
}
