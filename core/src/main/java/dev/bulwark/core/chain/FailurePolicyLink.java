package dev.bulwark.core.chain;

import dev.bulwark.LockPermit;
import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.engine.FailurePolicy;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.outage.OutageWatch;
import dev.bulwark.core.waiting.Stages;
import dev.bulwark.spi.StoreException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/**
 * Decides what a call gets when the store cannot be reached ({@code bulwark.failure-policy}):
 * {@code fail-closed} throws {@link StoreUnavailableException}, {@code fail-open} lets it through
 * unguarded and counts it, {@code local} hands it to the same limit on the JVM's local store.
 */
final class FailurePolicyLink implements LimitLink {

  private static final BulwarkLog LOG = BulwarkLog.of(FailurePolicyLink.class);

  private final LimitLink next;
  private final FailurePolicy policy;
  private final LimitLink localFallback;
  private final LimitEvents events;
  private final OutageWatch outage;

  /**
   * @param localFallback the limit on the local store; used, and required, under {@code local}
   */
  FailurePolicyLink(
      LimitLink next,
      FailurePolicy policy,
      LimitLink localFallback,
      LimitEvents events,
      OutageWatch outage) {
    this.next = next;
    this.policy = policy;
    this.localFallback = localFallback;
    this.events = events;
    this.outage = outage;
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    LockPermit permit;
    try {
      permit = next.acquire(call);
    } catch (FaultToleranceException e) {
      outage.answered(); // a rejection is an answer
      throw e;
    } catch (StoreException e) {
      LockPermit open = onStoreFailure(e, call.key());
      return open != null ? open : localFallback.acquire(call);
    }
    outage.answered();
    return permit;
  }

  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    return next.acquireAsync(call, caller)
        .handle(
            (permit, failure) -> {
              if (failure == null) {
                outage.answered();
                return CompletableFuture.completedFuture(permit);
              }
              Throwable cause = Stages.unwrap(failure);
              if (cause instanceof FaultToleranceException) {
                outage.answered();
              } else if (cause instanceof StoreException e) {
                try {
                  LockPermit open = onStoreFailure(e, call.key());
                  return open != null
                      ? CompletableFuture.completedFuture(open)
                      : localFallback.acquireAsync(call, caller);
                } catch (StoreUnavailableException closed) {
                  return CompletableFuture.<LockPermit>failedFuture(closed);
                }
              }
              return CompletableFuture.<LockPermit>failedFuture(cause);
            })
        .thenCompose(Function.identity());
  }

  /**
   * The policy's answer to a store failure, the same on both paths.
   *
   * @return what a {@code fail-open} call holds, or null to ask the local store
   * @throws StoreUnavailableException under {@code fail-closed}
   */
  private LockPermit onStoreFailure(StoreException e, String key) {
    outage.failed(e);
    events.storeFailed();
    switch (policy) {
      case FAIL_OPEN:
        events.passedThrough(key);
        LOG.debug("Bulwark: store unavailable, letting a call through", e);
        return NoPermit.PASSED_THROUGH;
      case LOCAL:
        return null;
      default:
        String limit = events + (key.isEmpty() ? "" : " key '" + key + "'");
        throw new StoreUnavailableException(
            events.name(), limit + ": store unavailable: " + e.getMessage(), e);
    }
  }
}
