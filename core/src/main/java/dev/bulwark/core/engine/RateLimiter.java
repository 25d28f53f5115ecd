package dev.bulwark.core.engine;

import dev.bulwark.RateLimitExceededException;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.core.chain.LimitCall;
import dev.bulwark.core.chain.LimitLink;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.event.LimitStats;
import dev.bulwark.core.waiting.AsyncScheduler;
import dev.bulwark.core.waiting.EventLoop;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/** One rate limit, built once per name: the entry to its chain. */
public final class RateLimiter implements Limit {

  private final RateLimitDefinition definition;
  private final RateSpec spec;
  private final LimitLink chain;
  private final LimitEvents events;
  private final RateStore store;
  private final long waitNanos;
  private final AsyncScheduler async;

  /** Where its waited calls start when their caller names no executor and is no event loop. */
  private final Executor inOrder = CallerExecutor.inOrder();

  RateLimiter(
      RateLimitDefinition definition,
      RateSpec spec,
      LimitLink chain,
      LimitEvents events,
      RateStore store,
      AsyncScheduler async) {
    this.async = async;
    this.definition = definition;
    this.spec = spec;
    this.chain = chain;
    this.events = events;
    this.store = store;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public RateLimitDefinition definition() {
    return definition;
  }

  /** The permits available now in the store (every JVM that shares it); takes nothing. */
  public RateLimitSnapshot inspect() {
    return OperatorRead.read(events, () -> store.inspect(spec));
  }

  RateSpec spec() {
    return spec;
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

  /** Takes a permit, waiting up to the definition's waiting time for a reserved slot. */
  public void acquire() {
    acquire(waitNanos);
  }

  /**
   * Takes a permit, waiting up to {@code maxWaitNanos} (a method's own waiting time). On a Vert.x
   * event-loop thread it does not wait: a slot that lies ahead refuses the call there with an
   * {@link IllegalStateException} that says what to do instead.
   */
  public void acquire(long maxWaitNanos) {
    if (maxWaitNanos > 0 && EventLoop.isCurrentThread()) {
      try {
        chain.acquire(LimitCall.unkeyed(0));
        return;
      } catch (RateLimitExceededException e) {
        throw EventLoop.wouldBlock("rate limit '" + definition.name() + "'", maxWaitNanos, e);
      }
    }
    chain.acquire(LimitCall.unkeyed(maxWaitNanos));
  }

  /**
   * Takes a permit without blocking: the stage completes when the reserved slot starts, or
   * exceptionally with {@link RateLimitExceededException}.
   */
  public CompletableFuture<Void> acquireAsync(long maxWaitNanos) {
    return AsyncCall.admit(
        chain,
        async,
        LimitCall.unkeyed(maxWaitNanos),
        CallerExecutor.current(inOrder),
        permit -> null);
  }

  /** Starts {@code work} once its reserved slot starts, without blocking meanwhile. */
  public <T> CompletableFuture<T> callAsync(
      long maxWaitNanos, Callable<? extends CompletionStage<T>> work) {
    return callAsync(maxWaitNanos, null, work);
  }

  /**
   * {@link #callAsync(long, Callable)}, starting {@code work} on {@code resume} when it had to wait
   * for its slot (null: on the caller's event loop when it is one, else on the JDK's asynchronous
   * pool).
   */
  public <T> CompletableFuture<T> callAsync(
      long maxWaitNanos, Executor resume, Callable<? extends CompletionStage<T>> work) {
    return AsyncCall.run(
        chain, async, LimitCall.unkeyed(maxWaitNanos), false, startOn(resume), work);
  }

  /** Takes a permit only if one is free now. */
  public boolean tryAcquire() {
    try {
      chain.acquire(LimitCall.unkeyed(0));
      return true;
    } catch (RateLimitExceededException e) {
      return false;
    }
  }
}
