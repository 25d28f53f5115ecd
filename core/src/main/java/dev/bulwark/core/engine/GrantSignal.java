package dev.bulwark.core.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * Where a queued request's thread parks until the store hands it the permit, or, for an
 * asynchronous call, what the hand-over triggers. Held permits extend it, so waiting allocates
 * nothing beyond the permit itself.
 */
abstract class GrantSignal {

  final long requestId;
  private volatile boolean granted;
  private volatile long fencingToken;
  private volatile Thread waiter;
  private volatile Runnable onGrant;

  GrantSignal(long requestId) {
    this.requestId = requestId;
  }

  /** Called by the store's grant listener, on any thread. */
  final void signal(long token) {
    fencingToken = token;
    granted = true;
    Thread thread = waiter;
    if (thread != null) {
      LockSupport.unpark(thread);
    }
    Runnable action = onGrant;
    if (action != null) {
      action.run();
    }
  }

  /**
   * Runs {@code action} when the grant arrives (on the thread that reports it), or at once when it
   * already has; it may run twice when the two race, so it must be idempotent.
   */
  final void onGrant(Runnable action) {
    onGrant = action;
    if (granted) {
      action.run();
    }
  }

  final boolean isGranted() {
    return granted;
  }

  final long signalledToken() {
    return fencingToken;
  }

  /**
   * Parks until signalled or {@code nanos} pass.
   *
   * @return whether the grant arrived
   * @throws InterruptedException when interrupted first
   */
  final boolean awaitSignal(long nanos) throws InterruptedException {
    long deadline = System.nanoTime() + nanos;
    waiter = Thread.currentThread();
    try {
      while (!granted) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return false;
        }
        LockSupport.parkNanos(this, remaining);
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
      }
      return true;
    } finally {
      waiter = null;
    }
  }
}
