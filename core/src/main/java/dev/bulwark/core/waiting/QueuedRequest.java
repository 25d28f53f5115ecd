package dev.bulwark.core.waiting;

import dev.bulwark.core.chain.StoreAccess;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Outcome;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Waits out one queued request: the store's hand-over normally wakes it; when the store's wake-ups
 * can be lost, it polls once per check interval, unless the store tells when one may have been lost
 * ({@link dev.bulwark.spi.BulwarkStore#wakeUpEpoch()}): then it polls once after that, and when its
 * limit's one check per interval falls to it ({@link Waiters}). At the deadline it withdraws, and a
 * withdrawal that races a hand-over keeps the grant. A request the store dropped before the
 * deadline (its lease ran out) asks again. A hand-over notice that may be stale (see {@link
 * GrantSignal}) is answered by a poll at once.
 */
public final class QueuedRequest {

  /** The store operations on one request. */
  public interface Queue {
    /** Asks the store once: granted, rejected, or (when it may) queued. */
    Grant request(boolean mayQueue);

    Grant poll();

    Grant cancel();

    /** Polls without waiting on this thread: the answer completes the stage later. */
    CompletableFuture<Grant> pollLater();

    /** Withdraws without waiting on this thread (see {@link #pollLater}). */
    CompletableFuture<Grant> cancelLater();

    void release();

    /** Keeps the request's lease alive in the store, queued or held. */
    void keepAlive();

    void stopKeepingAlive();
  }

  private QueuedRequest() {}

  /**
   * Asks the store and, when the request is queued, waits it out. A request that may wait is
   * registered with the JVM's waiters before it asks, so no hand-over can go unseen.
   *
   * @return GRANTED (with its token) or REJECTED
   * @throws InterruptedException after withdrawing the request (and releasing a racing grant)
   */
  public static <R extends GrantSignal & Queue> Grant acquire(
      R request, long maxWaitNanos, StoreAccess access, LimitEvents events)
      throws InterruptedException {
    if (maxWaitNanos <= 0) {
      return request.request(false);
    }
    long deadline = System.nanoTime() + maxWaitNanos;
    // read before the store first sees the request: a notice lost after this changes it
    request.trustFrom(access.wakeUpEpoch());
    access.waiters().register(request);
    try {
      Grant grant = request.request(true);
      if (grant.outcome() != Outcome.QUEUED) {
        return grant;
      }
      events.queued();
      access.waiters().queued(request, access);
      request.keepAlive();
      Grant outcome = await(request, deadline, access, request);
      if (!outcome.isGranted()) {
        request.stopKeepingAlive();
      }
      return outcome;
    } catch (InterruptedException | RuntimeException e) {
      // a request given up on (interrupt, store failure) must not be renewed: in the store it
      // expires within a lease, even when it was handed a permit that nobody will release
      request.stopKeepingAlive();
      throw e;
    } finally {
      access.waiters().unregister(request);
    }
  }

  /**
   * The wait until this JVM's next check: checks fall on one grid of the check interval, so that
   * the waiters of a limit poll together and their polls go in one batch, not one call each. A
   * check less than half an interval away is skipped: a waiter that just asked need not ask again.
   */
  static long untilNextCheck(long checkNanos) {
    if (checkNanos == Long.MAX_VALUE) {
      return checkNanos;
    }
    long wait = checkNanos - Math.floorMod(System.nanoTime(), checkNanos);
    return wait < checkNanos / 2 ? wait + checkNanos : wait;
  }

  /**
   * Asks again for a request the store no longer holds, though its caller may still wait: its lease
   * ran out while this JVM stood still (a pause, a stall) or while its renewal was held up, and the
   * store dropped it (or let a permit handed to it lapse). It joins the queue again at the back,
   * and is kept alive again, whatever the answer.
   */
  static Grant askAgain(Queue queue) {
    Grant again = queue.request(true);
    if (again.outcome() != Outcome.REJECTED) {
      queue.keepAlive();
    }
    return again;
  }

  /**
   * @return the final grant: GRANTED (with its token) or REJECTED
   * @throws InterruptedException after withdrawing the request (and releasing a racing grant)
   */
  private static Grant await(GrantSignal signal, long deadline, StoreAccess access, Queue queue)
      throws InterruptedException {
    Duration checkInterval = access.wakeUpCheckInterval();
    long check = checkInterval.isZero() ? Long.MAX_VALUE : checkInterval.toNanos();
    try {
      while (true) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return signal.isGranted() ? Grant.granted(signal.signalledToken()) : queue.cancel();
        }
        // one that trusts the wake-ups waits for them, or for its group's check (see Waiters)
        long wait = signal.trustsWakeUps() ? remaining : Math.min(remaining, untilNextCheck(check));
        long waitFrom = System.nanoTime();
        if (signal.awaitSignal(wait)) {
          if (signal.isGranted()) {
            return Grant.granted(signal.signalledToken());
          }
          signal.forget(); // a notice that may be stale: the store says what it is
        } else if (!signal.mustPoll(access.wakeUpEpoch()) && System.nanoTime() - waitFrom < wait) {
          continue; // nudged, and no wake-up can have been lost: the hand-over will be told
        }
        if (deadline - System.nanoTime() > 0) {
          Grant polled = queue.poll();
          if (polled.outcome() == Outcome.REJECTED && deadline - System.nanoTime() > 0) {
            polled = askAgain(queue);
          }
          if (polled.outcome() != Outcome.QUEUED) {
            return polled;
          }
        }
      }
    } catch (InterruptedException e) {
      try {
        if (signal.isGranted() || queue.cancel().isGranted()) {
          queue.release();
        }
      } catch (RuntimeException withdrawalFailed) {
        // the interrupt is what the caller must see (under fail-open a store failure would let the
        // call run); the request, no longer renewed, expires in the store within a lease
        e.addSuppressed(withdrawalFailed);
      }
      throw e;
    }
  }
}
