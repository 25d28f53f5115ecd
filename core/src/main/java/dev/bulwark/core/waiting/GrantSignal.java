package dev.bulwark.core.waiting;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a queued request's thread parks until the store hands it the permit, or, for an
 * asynchronous call, what the hand-over triggers. Each call's {@code StoreRequest} extends it, so
 * waiting allocates nothing beyond the permit itself.
 *
 * <p>A hand-over notice is trusted as a grant only while it cannot be stale: when it arrives within
 * half a lease of the request's registration. Until the store's first reply the request is not
 * renewed, so a permit handed to it then runs out one lease after the store first saw it, at the
 * earliest; if the reply was lost and the call re-sent after that, the store queued the request
 * afresh and the old notice announces a grant that is gone. A notice past that window is only a
 * hint: the waiter {@link #forget forgets} it and asks the store.
 */
public abstract class GrantSignal {

  protected final long requestId;

  /** The group {@link Waiters} counts it in while it is queued; null when not counted. */
  volatile String countedIn;

  /** How long after registering a notice is trusted: half a lease, or for ever (no expiry). */
  private final long trustNanos;

  private long registeredAt;
  private volatile boolean granted;
  private volatile long signalledAt;
  private volatile long fencingToken;
  private volatile Thread waiter;
  private volatile Runnable onGrant;

  /** Set when the waiter should look again (the store's wake-ups changed); see {@link #nudge}. */
  private volatile boolean nudged;

  /** Set when the waiter must ask the store whatever the wake-ups say (its lease was lost). */
  private volatile boolean mustAsk;

  private volatile Runnable onNudge;

  /** The store's wake-up epoch the waiter last trusted; -1 while it polls on the interval. */
  private volatile long trustedEpoch = -1;

  /**
   * @param leaseMillis the request's lease in the store, or 0 when the store's leases do not expire
   *     (then every notice is trusted)
   */
  protected GrantSignal(long requestId, long leaseMillis) {
    this.requestId = requestId;
    this.trustNanos =
        leaseMillis <= 0 ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(leaseMillis) / 2;
  }

  /**
   * The limit (and lock key) it waits on: this JVM's queued waiters of one group share their
   * checks. Asked only once the request is queued, so a call that is granted at once pays nothing.
   */
  protected abstract String group();

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
   * Wakes the waiter to look again without a notice: the store's wake-ups changed, or with {@code
   * ask}, the store no longer knows the request (a poll then says what it is). Called on any
   * thread.
   */
  final void nudge(boolean ask) {
    if (ask) {
      mustAsk = true;
    }
    nudged = true;
    Thread thread = waiter;
    if (thread != null) {
      LockSupport.unpark(thread);
    }
    Runnable action = onNudge;
    if (action != null) {
      action.run();
    }
  }

  /** Runs {@code action} on each {@link #nudge} (on the nudging thread). */
  final void onNudge(Runnable action) {
    onNudge = action;
  }

  /**
   * Starts trusting the store's wake-ups at {@code epoch}, read before the request first reached
   * the store (-1: poll on the interval).
   */
  final void trustFrom(long epoch) {
    trustedEpoch = epoch;
  }

  /** Whether the waiter may wait without polling: it lost no wake-up while it trusted them. */
  final boolean trustsWakeUps() {
    return trustedEpoch >= 0;
  }

  /**
   * Whether the waiter must poll now, having been nudged or having reached a check: yes unless the
   * store's wake-up epoch is still the one trusted. Reading it clears the nudge, and takes the
   * current epoch as the trusted one when the answer is yes (the poll that follows covers what was
   * lost before it).
   */
  final boolean mustPoll(long currentEpoch) {
    nudged = false;
    boolean ask = mustAsk;
    mustAsk = false;
    if (!ask && currentEpoch >= 0 && currentEpoch == trustedEpoch) {
      return false;
    }
    trustedEpoch = currentEpoch;
    return true;
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
   * Parks until signalled, nudged or {@code nanos} pass.
   *
   * @return whether a notice arrived (see {@link #isGranted} for whether it can be trusted)
   * @throws InterruptedException when interrupted first
   */
  final boolean awaitSignal(long nanos) throws InterruptedException {
    long deadline = System.nanoTime() + nanos;
    waiter = Thread.currentThread();
    try {
      while (!granted) {
        if (nudged) {
          return false;
        }
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
