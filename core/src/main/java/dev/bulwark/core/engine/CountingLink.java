package dev.bulwark.core.engine;

import dev.bulwark.LockPermit;
import dev.bulwark.StoreUnavailableException;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/** Counts admitted and rejected calls in the limit's {@link LimitStats}. */
final class CountingLink implements LimitLink {

  private final LimitLink next;
  private final LimitStats stats;

  CountingLink(LimitLink next, LimitStats stats) {
    this.next = next;
    this.stats = stats;
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    LockPermit permit;
    try {
      permit = next.acquire(call);
    } catch (StoreUnavailableException e) {
      throw e; // counted as a store failure where the policy decided
    } catch (FaultToleranceException e) {
      stats.onRejected();
      throw e;
    }
    stats.onGranted();
    return permit;
  }

  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    return next.acquireAsync(call, caller)
        .whenComplete(
            (permit, failure) -> {
              if (failure == null) {
                stats.onGranted();
              } else {
                Throwable cause = Stages.unwrap(failure);
                if (cause instanceof FaultToleranceException
                    && !(cause instanceof StoreUnavailableException)) {
                  stats.onRejected(); // a store failure is counted where the policy decided
                }
              }
            });
  }
}
