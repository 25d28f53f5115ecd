package dev.bulwark.core.chain;

import dev.bulwark.LockPermit;
import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.waiting.Stages;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/** Counts admitted and rejected calls in the limit's {@code LimitStats}. */
final class CountingLink implements LimitLink {

  private final LimitLink next;
  private final LimitEvents events;

  CountingLink(LimitLink next, LimitEvents events) {
    this.next = next;
    this.events = events;
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    LockPermit permit;
    try {
      permit = next.acquire(call);
    } catch (StoreUnavailableException e) {
      throw e; // counted as a store failure where the policy decided
    } catch (FaultToleranceException e) {
      events.countRejected();
      throw e;
    }
    events.countGranted();
    return permit;
  }

  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    return next.acquireAsync(call, caller)
        .whenComplete(
            (permit, failure) -> {
              if (failure == null) {
                events.countGranted();
              } else {
                Throwable cause = Stages.unwrap(failure);
                if (cause instanceof FaultToleranceException
                    && !(cause instanceof StoreUnavailableException)) {
                  events.countRejected(); // a store failure is counted where the policy decided
                }
              }
            });
  }
}
