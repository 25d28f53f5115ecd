package dev.bulwark.core.engine;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One family of keyed read-write locks, built once per name: the entry to its chain. The guarded
 * code reads a granted lock's fencing token through {@code LockContext}.
 */
public final class KeyedLock {

  private final LockDefinition definition;
  private final LimitLink chain;
  private final LimitEvents events;
  private final LockSpec spec;
  private final LockStore store;
  private final long waitNanos;

  KeyedLock(
      LockDefinition definition,
      LimitLink chain,
      LimitEvents events,
      LockSpec spec,
      LockStore store) {
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
    return Inspection.read(events, () -> store.inspect(spec, key));
  }

  public LimitStats stats() {
    return events.stats();
  }

  /** The definition's waiting time, in nanoseconds. */
  long waitNanos() {
    return waitNanos;
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
        return chain.acquire(key, mode, 0);
      } catch (LockTimeoutException e) {
        throw EventLoop.wouldBlock(
            "lock '" + definition.name() + "' key '" + key + "'", maxWaitNanos, e);
      }
    }
    return chain.acquire(key, mode, maxWaitNanos);
  }

  /**
   * Takes {@code key} in {@code mode} without blocking: the stage completes once the lock is held,
   * or exceptionally with {@link LockTimeoutException}.
   */
  public CompletableFuture<LockPermit> lockAsync(String key, LockMode mode, long maxWaitNanos) {
    return AsyncCall.admit(
        chain, Objects.requireNonNull(key, "key"), mode, maxWaitNanos, permit -> permit);
  }

  /**
   * Starts {@code work} once {@code key} is held in {@code mode}, without blocking while waiting,
   * and holds the lock until the work's stage completes, however it completes. While the work is
   * invoked, {@code LockContext} on the invoking thread shows the lock.
   */
  public <T> CompletableFuture<T> callAsync(
      String key, LockMode mode, long maxWaitNanos, Callable<? extends CompletionStage<T>> work) {
    return AsyncCall.run(chain, Objects.requireNonNull(key, "key"), mode, maxWaitNanos, true, work);
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
