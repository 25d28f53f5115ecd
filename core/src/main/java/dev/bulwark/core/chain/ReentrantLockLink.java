package dev.bulwark.core.chain;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import java.util.concurrent.CompletableFuture;

/**
 * Lets a nested call on the same thread, name and key run under the lock the thread already holds
 * when that covers the requested mode, instead of queueing behind itself; a READ holder asking for
 * WRITE fails at once rather than deadlock.
 */
final class ReentrantLockLink implements LimitLink {

  private final LimitLink next;
  private final String name;

  ReentrantLockLink(LimitLink next, String name) {
    this.next = next;
    this.name = name;
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    LockPermit held = heldCovering(call.key(), call.mode());
    if (held == null) {
      return next.acquire(call);
    }
    Reentered nested = new Reentered(held);
    ThreadLocks.push(nested);
    return nested;
  }

  /**
   * An asynchronous call nested in a lock this thread holds runs under it too; its stage should
   * complete before the outer call ends, which releases the lock. Its lock context is shown while
   * it is invoked ({@code engine.AsyncCall}), not pushed here: it would be closed on another
   * thread.
   */
  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    LockPermit held;
    try {
      held = heldCovering(call.key(), call.mode());
    } catch (IllegalStateException e) {
      return CompletableFuture.failedFuture(e);
    }
    return held == null
        ? next.acquireAsync(call, caller)
        : CompletableFuture.completedFuture(new Reentered(held));
  }

  /**
   * The lock of this name and key the thread holds, when it covers {@code mode}; null when it holds
   * none.
   *
   * @throws IllegalStateException when it holds it for READ and asks for WRITE
   */
  private LockPermit heldCovering(String key, LockMode mode) {
    LockPermit held = ThreadLocks.held(name, key);
    if (held != null && !held.mode().covers(mode)) {
      throw new IllegalStateException(
          "Lock '"
              + name
              + "'"
              + (key.isEmpty() ? "" : " key '" + key + "'")
              + " is held for READ by this thread; upgrading to WRITE would deadlock");
    }
    return held;
  }

  /**
   * A nested acquisition under a lock the thread already holds: closing it releases nothing (and
   * pops nothing on a thread that never pushed it).
   */
  private static final class Reentered extends ForwardingPermit {

    private boolean closed;

    Reentered(LockPermit outer) {
      super(outer);
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        ThreadLocks.pop(this);
      }
    }
  }
}
