package dev.bulwark.core.engine;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Permit;
import dev.bulwark.core.chain.LimitCall;
import dev.bulwark.core.chain.LimitLink;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.event.LimitStats;
import dev.bulwark.core.waiting.AsyncScheduler;
import dev.bulwark.core.waiting.EventLoop;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * One bulkhead, built once per name: the entry to its chain. {@link #acquire()} hands back a {@link
 * Permit} whose close releases it.
 */
public final class BulkheadLimiter implements Limit {

  private final BulkheadDefinition definition;
  private final PermitSpec spec;
  private final LimitLink chain;
  private final LimitEvents events;
  private final PermitStore store;
  private final long waitNanos;
  private final AsyncScheduler async;

  /** Where its waited calls start when their caller names no executor and is no event loop. */
  private final Executor inOrder = CallerExecutor.inOrder();

  BulkheadLimiter(
      BulkheadDefinition definition,
      PermitSpec spec,
      LimitLink chain,
      LimitEvents events,
      PermitStore store,
      AsyncScheduler async) {
    this.async = async;
    this.definition = definition;
    this.spec = spec;
    this.chain = chain;
    this.events = events;
    this.store = store;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public BulkheadDefinition definition() {
    return definition;
  }

  PermitSpec spec() {
    return spec;
  }

  LimitLink chain() {
    return chain;
  }

  public LimitStats stats() {
    return events.stats();
  }

  /** The definition's waiting time, in nanoseconds. */
  long waitNanos() {
    return waitNanos;
  }

  private Executor startOn(Executor resume) {
    return CallerExecutor.current(resume != null ? resume : inOrder); // an event loop first
  }

  /** Takes a permit, waiting up to the definition's waiting time. */
  public Permit acquire() {
    return acquire(waitNanos);
  }

  /**
   * Takes a permit, waiting up to {@code maxWaitNanos} (a method's own waiting time). On a Vert.x
   * event-loop thread it does not wait: a bulkhead that is full there refuses the call with an
   * {@link IllegalStateException} that says what to do instead.
   */
  public Permit acquire(long maxWaitNanos) {
    if (maxWaitNanos > 0 && EventLoop.isCurrentThread()) {
      try {
        return chain.acquire(LimitCall.unkeyed(0));
      } catch (BulkheadFullException e) {
        throw EventLoop.wouldBlock("bulkhead '" + definition.name() + "'", maxWaitNanos, e);
      }
    }
    return chain.acquire(LimitCall.unkeyed(maxWaitNanos));
  }

  /** Holders, queue and available permits in the store now (every JVM that shares it). */
  public BulkheadSnapshot inspect() {
    return OperatorRead.read(events, () -> store.inspect(spec));
  }

  /**
   * Takes a permit without blocking: the stage completes once the permit is held (after waiting up
   * to {@code maxWaitNanos} in the queue), or exceptionally with {@link BulkheadFullException}.
   */
  public CompletableFuture<Permit> acquireAsync(long maxWaitNanos) {
    return AsyncCall.admit(
        chain,
        async,
        LimitCall.unkeyed(maxWaitNanos),
        CallerExecutor.current(inOrder),
        permit -> permit);
  }

  /**
   * Starts {@code work} once a permit is held, without blocking while waiting for it, and holds the
   * permit until the work's stage completes, however it completes.
   */
  public <T> CompletableFuture<T> callAsync(
      long maxWaitNanos, Callable<? extends CompletionStage<T>> work) {
    return callAsync(maxWaitNanos, null, work);
  }

  /**
   * {@link #callAsync(long, Callable)}, starting {@code work} on {@code resume} when it had to wait
   * (null: on the caller's event loop when it is one, else on the JDK's asynchronous pool).
   */
  public <T> CompletableFuture<T> callAsync(
      long maxWaitNanos, Executor resume, Callable<? extends CompletionStage<T>> work) {
    return AsyncCall.run(
        chain, async, LimitCall.unkeyed(maxWaitNanos), false, startOn(resume), work);
  }

  /** Takes a permit only if one is free now; null otherwise. */
  public Permit tryAcquire() {
    try {
      return chain.acquire(LimitCall.unkeyed(0));
    } catch (BulkheadFullException e) {
      return null;
    }
  }
}
