package dev.bulwark.core.chain;

import dev.bulwark.LockPermit;
import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.waiting.Stages;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.RejectionReason;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/**
 * Reports grants, rejections (with why) and releases to the application's listener, with the time
 * waited and held. {@link LimitChains} puts it in a chain only when somebody listens, so without a
 * listener no clock is read and nothing is allocated for events.
 */
final class EventLink implements LimitLink {

  private final LimitLink next;
  private final LimitEvents events;

  EventLink(LimitLink next, LimitEvents events) {
    this.next = next;
    this.events = events;
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    long start = System.nanoTime();
    LockPermit permit;
    try {
      permit = next.acquire(call);
    } catch (FaultToleranceException e) {
      // the store links set the interrupt flag again when they give up
      rejected(call, e, Thread.currentThread().isInterrupted(), start);
      throw e;
    }
    return granted(permit, call.key(), start);
  }

  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    long start = System.nanoTime();
    return next.acquireAsync(call, caller)
        .handle(
            (permit, failure) -> {
              if (failure != null) {
                if (Stages.unwrap(failure) instanceof FaultToleranceException e) {
                  rejected(call, e, caller.isDone(), start); // done first: gave up
                }
                throw Stages.rethrow(failure);
              }
              return granted(permit, call.key(), start);
            });
  }

  private LockPermit granted(LockPermit permit, String key, long start) {
    if (permit == NoPermit.PASSED_THROUGH) {
      return permit; // reported as PassedThrough, not as a grant: it holds nothing
    }
    long granted = System.nanoTime();
    events.granted(key, granted - start);
    return events.type() == LimitType.RATE_LIMIT || permit == NoPermit.INSTANCE
        ? permit
        : new TimedPermit(permit, key, granted);
  }

  private void rejected(LimitCall call, FaultToleranceException e, boolean gaveUp, long start) {
    events.rejected(call.key(), reason(e, call.maxWaitNanos(), gaveUp), System.nanoTime() - start);
  }

  private RejectionReason reason(FaultToleranceException e, long maxWaitNanos, boolean gaveUp) {
    if (e instanceof StoreUnavailableException) {
      return RejectionReason.STORE_DOWN;
    }
    if (gaveUp) {
      return RejectionReason.INTERRUPTED;
    }
    // a rate limit rejects at once when its next slot lies beyond the wait: it never waits it out
    return maxWaitNanos > 0 && events.type() != LimitType.RATE_LIMIT
        ? RejectionReason.TIMED_OUT
        : RejectionReason.FULL;
  }

  /** Reports the release, with the time held, the first time the call closes its permit. */
  private final class TimedPermit extends ForwardingPermit {

    private final String key;
    private final long grantedAt;
    private boolean closed;

    TimedPermit(LockPermit held, String key, long grantedAt) {
      super(held);
      this.key = key;
      this.grantedAt = grantedAt;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        long held = System.nanoTime() - grantedAt;
        super.close();
        events.released(key, held);
      }
    }
  }
}
