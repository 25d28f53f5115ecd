package dev.bulwark.core.waiting;

import dev.bulwark.core.chain.StoreAccess;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Outcome;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;

/**
 * Waits out one queued request of an asynchronous call without a thread: the store's hand-over
 * completes it through the request's {@link GrantSignal}; a timer on the {@link AsyncScheduler}
 * polls as {@link QueuedRequest} does (once per wake-up check interval while the store's wake-ups
 * can be lost, otherwise when the limit's one check falls to it) and withdraws the request at the
 * deadline. The same rules as {@link QueuedRequest}: a withdrawal that races a hand-over keeps the
 * grant, a notice that may be stale is answered by a poll, and a caller that gives up (cancels its
 * stage) withdraws the request and gives back a grant that raced it.
 */
public final class AsyncWait<R extends GrantSignal & QueuedRequest.Queue> {

  private static final BulwarkLog LOG = BulwarkLog.of(AsyncWait.class);

  private final R request;
  private final StoreAccess access;
  private final long deadline;
  private final long checkNanos;
  private final CompletableFuture<Grant> outcome = new CompletableFuture<>();
  private volatile ScheduledFuture<?> timer;

  private AsyncWait(R request, StoreAccess access, long deadline) {
    this.request = request;
    this.access = access;
    this.deadline = deadline;
    long interval = access.wakeUpCheckInterval().toNanos();
    this.checkNanos = interval == 0 ? Long.MAX_VALUE : interval;
  }

  /**
   * Asks the store and, when the request is queued, waits it out. The store is asked on the calling
   * thread; everything after a queued answer completes on the engine's {@link AsyncScheduler}.
   *
   * @param caller the stage handed to the caller: when it completes first (cancelled), the request
   *     is withdrawn and the outcome is REJECTED
   * @param order the limit's start order, or null when its calls need none
   * @return completes with GRANTED (with its token) or REJECTED, or with the store's failure
   */
  public static <R extends GrantSignal & QueuedRequest.Queue> CompletableFuture<Grant> acquire(
      R request,
      long maxWaitNanos,
      StoreAccess access,
      LimitEvents events,
      CompletableFuture<?> caller,
      StartOrder order) {
    AsyncWait<R> wait = new AsyncWait<>(request, access, System.nanoTime() + maxWaitNanos);
    StartOrder.Place place = order == null ? null : new StartOrder.Place();
    Grant grant;
    try {
      if (maxWaitNanos <= 0) {
        grant = ask(request, false, order, place);
      } else {
        // read before the store first sees the request: a notice lost after this changes it
        request.trustFrom(access.wakeUpEpoch());
        access.waiters().register(request);
        try {
          grant = ask(request, true, order, place);
        } catch (RuntimeException e) {
          access.waiters().unregister(request);
          throw e;
        }
        if (grant.outcome() == Outcome.QUEUED) {
          events.queued();
          access.waiters().queued(request, access);
          request.keepAlive();
          wait.start(caller);
          return inLine(wait.outcome, order, place);
        }
        access.waiters().unregister(request);
      }
    } catch (RuntimeException e) {
      wait.outcome.completeExceptionally(e);
      return inLine(wait.outcome, order, place);
    }
    if (order == null) {
      return access.async().inOrder(grant);
    }
    if (order.leaveIfFirst(place)) {
      return CompletableFuture.completedFuture(grant);
    }
    wait.outcome.complete(grant);
    return inLine(wait.outcome, order, place);
  }

  private static <R extends GrantSignal & QueuedRequest.Queue> Grant ask(
      R request, boolean mayQueue, StartOrder order, StartOrder.Place place) {
    return order == null
        ? request.request(mayQueue)
        : order.ask(place, () -> request.request(mayQueue));
  }

  /** The outcome, passed on in the limit's start order when it has one. */
  private static CompletableFuture<Grant> inLine(
      CompletableFuture<Grant> outcome, StartOrder order, StartOrder.Place place) {
    if (order == null) {
      return outcome;
    }
    order.answer(place, outcome);
    return place.answer();
  }

  private void start(CompletableFuture<?> caller) {
    outcome.whenComplete((grant, failure) -> finish(grant));
    access.async().track(outcome);
    request.onGrant(() -> access.async().execute(this::signalled));
    request.onNudge(() -> access.async().execute(() -> check(false)));
    scheduleCheck();
    caller.whenComplete(
        (value, failure) -> {
          // answered as a rejection: the links around report it as one, and nobody else sees it
          if (outcome.complete(Grant.REJECTED)) {
            access.async().offEventLoop(this::withdraw); // a store round trip
          }
        });
  }

  /** A hand-over notice arrived: trusted, it completes the wait; else the store is asked. */
  private void signalled() {
    if (outcome.isDone()) {
      return;
    }
    if (request.isGranted()) {
      outcome.complete(granted());
      return;
    }
    request.forget(); // a notice that may be stale (see GrantSignal)
    ask(request.pollLater(), false);
  }

  private Grant granted() {
    return Grant.granted(request.signalledToken());
  }

  /**
   * The next check: while the store's wake-ups are trusted, only the deadline (its group's check
   * and the store's changes come as nudges, see {@link Waiters}), else on the interval's grid.
   * Replaces a check already scheduled, so nudges do not pile timers.
   */
  private void scheduleCheck() {
    long remaining = Math.max(0, deadline - System.nanoTime());
    long delay =
        Math.min(
            remaining,
            request.trustsWakeUps() ? remaining : QueuedRequest.untilNextCheck(checkNanos));
    ScheduledFuture<?> previous = timer;
    if (previous != null) {
      previous.cancel(false);
    }
    timer = access.async().schedule(() -> check(true), delay);
    if (outcome.isDone()) {
      timer.cancel(false); // finished before the timer was recorded
    }
  }

  /**
   * At the deadline withdraws; before it polls the store in case a wake-up was lost. A nudge
   * ({@code due} false) polls only when the store says one may have been ({@link
   * GrantSignal#mustPoll}). Neither waits on the scheduler's thread: the answer comes back on the
   * thread that sent the limit's batch, so many waiters' checks are not funnelled through one
   * thread.
   */
  private void check(boolean due) {
    if (outcome.isDone()) {
      return;
    }
    if (deadline - System.nanoTime() <= 0) {
      if (request.isGranted()) {
        outcome.complete(granted());
      } else {
        ask(request.cancelLater(), true);
      }
      return;
    }
    if (!request.mustPoll(access.wakeUpEpoch()) && !due) {
      scheduleCheck();
      return;
    }
    ask(request.pollLater(), false).thenRun(this::scheduleCheckWhileWaiting);
  }

  /**
   * Completes the wait with the store's answer unless it says the request is still queued (a
   * withdrawal's answer is final). A poll that finds the request dropped before the deadline asks
   * again instead ({@link QueuedRequest#askAgain}), off the event loop: a store round trip.
   */
  private CompletableFuture<Void> ask(CompletableFuture<Grant> asked, boolean isFinal) {
    return asked.handle(
        (grant, failure) -> {
          if (failure != null) {
            outcome.completeExceptionally(
                failure instanceof CompletionException ? failure.getCause() : failure);
          } else if (!isFinal
              && grant.outcome() == Outcome.REJECTED
              && deadline - System.nanoTime() > 0) {
            access.async().offEventLoop(this::askAgain);
          } else if (isFinal || grant.outcome() != Outcome.QUEUED) {
            outcome.complete(grant);
          }
          return null;
        });
  }

  private void askAgain() {
    if (outcome.isDone()) {
      return;
    }
    try {
      Grant again = QueuedRequest.askAgain(request);
      boolean taken = again.outcome() != Outcome.QUEUED && outcome.complete(again);
      if (!taken && outcome.isDone() && !endedGranted()) {
        // the wait ended meanwhile (its caller gave up, its deadline passed): what was asked
        // again is nobody's, so it goes back, and is no longer kept alive
        request.stopKeepingAlive();
        withdraw();
      }
    } catch (RuntimeException e) {
      outcome.completeExceptionally(e);
    }
  }

  private void scheduleCheckWhileWaiting() {
    if (!outcome.isDone()) {
      scheduleCheck();
    }
  }

  /** The caller gave up: take the request out of the queue, and give back a grant that raced it. */
  /** Whether the wait ended with a grant (the caller holds it: nothing of it may go back). */
  private boolean endedGranted() {
    try {
      Grant ended = outcome.getNow(null);
      return ended != null && ended.isGranted();
    } catch (CompletionException | CancellationException e) {
      return false;
    }
  }

  private void withdraw() {
    try {
      if (request.isGranted() || request.cancel().isGranted()) {
        request.release();
      }
    } catch (RuntimeException e) {
      // the request expires with its lease in the store, which is no longer renewed
      LOG.debug("Bulwark: could not withdraw a request whose caller gave up", e);
    }
  }

  private void finish(Grant grant) {
    ScheduledFuture<?> pending = timer;
    if (pending != null) {
      pending.cancel(false);
    }
    access.waiters().unregister(request);
    if (grant == null || !grant.isGranted()) {
      // a request given up on must not be renewed: in the store it expires within a lease
      request.stopKeepingAlive();
    }
  }
}
