package dev.bulwark.core.engine;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.core.chain.LimitCall;
import dev.bulwark.core.chain.LimitLink;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.event.LimitStats;
import dev.bulwark.core.waiting.AsyncScheduler;
import dev.bulwark.core.waiting.EventLoop;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * One family of keyed read-write locks, built once per name: the entry to its chain. The guarded
 * code reads a granted lock's fencing token through {@code LockContext}.
 */
public final class KeyedLock implements Limit {

  private final LockDefinition definition;
  private final LimitLink chain;
  private final LimitEvents events;
  private final LockSpec spec;
  private final LockStore store;
  private final long waitNanos;
  private final AsyncScheduler async;

  /** Where its waited calls start when their caller names no executor and is no event loop. */
  private final Executor inOrder = CallerExecutor.inOrder();

  KeyedLock(
      LockDefinition definition,
      LimitLink chain,
      LimitEvents events,
      LockSpec spec,
      LockStore store,
      AsyncScheduler async) {
    this.async = async;
    this.definition = definition;
    this.chain = chain;
    this.events = events;
    this.spec = spec;
    this.store = store;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public LockDefinition definition() {
    return definition;
  }

  /** The writer, readers and queue of {@code key} in the store now (every JVM that shares it). */
  public LockKeySnapshot inspect(String key) {
    return OperatorRead.read(events, () -> store.inspect(spec, key));
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

  /** Takes {@code key} in {@code mode}, waiting up to the definition's waiting time. */
  public LockPermit lock(String key, LockMode mode) {
    return lock(key, mode, waitNanos);
  }

  /**
   * Takes {@code key} in {@code mode}, waiting up to {@code maxWaitNanos}. On a Vert.x event-loop
   * thread it does not wait: a key that is taken there refuses the call with an {@link
   * IllegalStateException} that says what to do instead.
   */
  public LockPermit lock(String key, LockMode mode, long maxWaitNanos) {
    Objects.requireNonNull(key, "key");
    if (maxWaitNanos > 0 && EventLoop.isCurrentThread()) {
      try {
        return chain.acquire(LimitCall.lock(key, mode, 0));
      } catch (LockTimeoutException e) {
        throw EventLoop.wouldBlock(
            "lock '" + definition.name() + "' key '" + key + "'", maxWaitNanos, e);
      }
    }
    return chain.acquire(LimitCall.lock(key, mode, maxWaitNanos));
  }

  /**
   * Takes {@code key} in {@code mode} without blocking: the stage completes once the lock is held,
   * or exceptionally with {@link LockTimeoutException}.
   */
  public CompletableFuture<LockPermit> lockAsync(String key, LockMode mode, long maxWaitNanos) {
    return AsyncCall.admit(
        chain,
        async,
        LimitCall.lock(Objects.requireNonNull(key, "key"), mode, maxWaitNanos),
        CallerExecutor.current(inOrder),
        permit -> permit);
  }

  /**
   * Starts {@code work} once {@code key} is held in {@code mode}, without blocking while waiting,
   * and holds the lock until the work's stage completes, however it completes. While the work is
   * invoked, {@code LockContext} on the invoking thread shows the lock.
   */
  public <T> CompletableFuture<T> callAsync(
      String key, LockMode mode, long maxWaitNanos, Callable<? extends CompletionStage<T>> work) {
    return callAsync(key, mode, maxWaitNanos, null, work);
  }

  /**
   * {@link #callAsync(String, LockMode, long, Callable)}, starting {@code work} on {@code resume}
   * when it had to wait (null: on the caller's event loop when it is one, else on the JDK's
   * asynchronous pool).
   */
  public <T> CompletableFuture<T> callAsync(
      String key,
      LockMode mode,
      long maxWaitNanos,
      Executor resume,
      Callable<? extends CompletionStage<T>> work) {
    return AsyncCall.run(
        chain,
        async,
        LimitCall.lock(Objects.requireNonNull(key, "key"), mode, maxWaitNanos),
        true,
        startOn(resume),
        work);
  }

  /** Takes {@code key} in {@code mode} only if it is free now. */
  public Optional<LockPermit> tryLock(String key, LockMode mode) {
    try {
      return Optional.of(lock(key, mode, 0));
    } catch (LockTimeoutException e) {
      return Optional.empty();
    }
  }
}
