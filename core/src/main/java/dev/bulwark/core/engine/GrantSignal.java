package dev.bulwark.core.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a queued request's thread parks until the store hands it the permit, or, for an
 * asynchronous call, what the hand-over triggers. Held permits extend it, so waiting allocates
 * nothing beyond the permit itself.
 *
 * <p>A hand-over notice is trusted as a grant only while it cannot be stale: when it arrives within
 * half a lease of the request's registration. Until the store's first reply the request is not
 * renewed, so a permit handed to it then runs out one lease after the store first saw it, at the
 * earliest; if the reply was lost and the call re-sent after that, the store queued the request
 * afresh and the old notice announces a grant that is gone. A notice past that window is only a
 * hint: the waiter {@link #forget forgets} it and asks the store.
 */
abstract class GrantSignal {

  final long requestId;

  /** How long after registering a notice is trusted: half a lease, or for ever (no expiry). */
  private final long trustNanos;

  private long registeredAt;
  private volatile boolean granted;
  private volatile long signalledAt;
  private volatile long fencingToken;
  private volatile Thread waiter;
  private volatile Runnable onGrant;

  /**
   * @param leaseMillis the request's lease in the store, or 0 when the store's leases do not expire
   *     (then every notice is trusted)
   */
  GrantSignal(long requestId, long leaseMillis) {
    this.requestId = requestId;
    this.trustNanos =
        leaseMillis <= 0 ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(leaseMillis) / 2;
  }

  /** Called when the request registers, before it first asks the store. */
  final void registered() {
    registeredAt = System.nanoTime();
  }

  /** Called by the store's grant listener, on any thread. */
  final void signal(long token) {
    fencingToken = token;
    signalledAt = System.nanoTime();
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

  /** Whether a notice arrived that is known to announce a live grant (see the class comment). */
  final boolean isGranted() {
    return granted && signalledAt - registeredAt < trustNanos;
  }

  /**
   * Drops a notice that may be stale before the store is asked; one that arrives after this is kept
   * (and the store's answer reflects its hand-over anyway).
   */
  final void forget() {
    granted = false;
  }

  final long signalledToken() {
    return fencingToken;
  }

  /**
   * Parks until signalled or {@code nanos} pass.
   *
   * @return whether a notice arrived (see {@link #isGranted} for whether it can be trusted)
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
