package dev.bulwark.core.chain;

import dev.bulwark.LockPermit;
import dev.bulwark.core.waiting.AsyncScheduler;
import java.util.concurrent.CompletableFuture;

/**
 * One link of a limit's chain: it makes one decision about a call and hands over to the next link.
 * The innermost link asks the store; the links around it apply the failure policy, count, report
 * events and keep the thread's locks. {@link LimitChains} orders them, once per limit.
 *
 * <p>Each link has two paths that share its decisions: {@link #acquire} blocks the calling thread
 * while the call waits, {@link #acquireAsync} returns at once and completes when the call is
 * admitted, with no thread waiting meanwhile.
 */
public interface LimitLink {

  /**
   * Admits one call, waiting up to its {@link LimitCall#maxWaitNanos}.
   *
   * @return what the call holds until it ends (closing it gives it back); {@link NoPermit} when
   *     nothing is held (a rate limit, or a call let through by {@code fail-open})
   * @throws org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException the limit's
   *     own exception when the call is not admitted
   * @throws dev.bulwark.spi.StoreException from the store link, for the failure policy
   */
  LockPermit acquire(LimitCall call);

  /**
   * Admits one call without blocking while it waits: the store is asked on the calling thread; a
   * call that has to wait completes later, on the engine's {@link AsyncScheduler}.
   *
   * @param caller the stage handed to the caller; when it completes before the call is admitted
   *     (the caller cancelled it), the request is withdrawn
   * @return completes with what {@link #acquire} returns, or exceptionally with what it throws;
   *     never throws itself
   */
  CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller);
}
