package dev.bulwark.core.chain;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import java.util.concurrent.CompletableFuture;

/**
 * Makes a granted lock visible to the guarded code through {@code LockContext} on the calling
 * thread, until the call closes it.
 */
final class LockContextLink implements LimitLink {

  private final LimitLink next;

  LockContextLink(LimitLink next) {
    this.next = next;
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    LockPermit lock = new ThreadHeld(next.acquire(call), call.key(), call.mode());
    ThreadLocks.push(lock);
    return lock;
  }

  /**
   * Not pushed here: the call's stage completes, and closes the lock, on another thread. {@code
   * engine.AsyncCall} shows it on the thread that invokes the guarded method, for that invocation.
   */
  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    return next.acquireAsync(call, caller)
        .thenApply(held -> new ThreadHeld(held, call.key(), call.mode()));
  }

  /**
   * What the thread holds. A call let through unguarded by {@code fail-open} is shown too, with its
   * requested name, key and mode and fencing token 0, so the guarded code reads the same context
   * either way.
   */
  private static final class ThreadHeld extends ForwardingPermit {

    private final String key;
    private final LockMode mode;

    ThreadHeld(LockPermit held, String key, LockMode mode) {
      super(held);
      this.key = key;
      this.mode = mode;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public LockMode mode() {
      return mode;
    }

    @Override
    public void close() {
      ThreadLocks.pop(this);
      super.close();
    }
  }
}
