package dev.bulwark.core.waiting;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Keeps the asynchronous calls of one bulkhead in this JVM starting in the order the store granted
 * them. A store serves its queue first come, first served, so a call granted at once was granted
 * after every older request that was already queued; but an older call's hand-over may still be on
 * its way (the Redis store's notice, the scheduler's queue) when the newer one is answered. So a
 * call's answer is passed on only once every request of this JVM that the store had queued before
 * the call asked has had its answer passed on.
 *
 * <p>No lock is held across the store's round trip: requests ask side by side. Each request that
 * the store queues takes a ticket, in the order its answer came back; a request that asks notes how
 * many tickets were out when it asked, and waits for those only: they were queued in the store
 * before it, so when it is granted they were granted first (or gave up), and their answers are on
 * their way. Tickets only ever point to older ones, so nobody waits in a circle. Requests that ask
 * at the same instant are in no defined order, in the store or here.
 */
public final class StartOrder {

  /** One request's place in line and the stage its answer goes to. */
  static final class Place {
    private final CompletableFuture<Grant> answer = new CompletableFuture<>();
    private long follows; // guarded by the StartOrder: the tickets out when it asked
    private long ticket = -1; // guarded by the StartOrder: its own, once queued; -1 before
    private Grant grant; // guarded by the StartOrder
    private Throwable failure; // guarded by the StartOrder

    /** Completes with the request's answer, after every older request's. */
    CompletableFuture<Grant> answer() {
      return answer;
    }
  }

  private final AsyncScheduler async;
  private long tickets; // guarded by this: tickets handed out so far
  private long passedBelow; // guarded by this: every ticket below it has been passed on
  private final TreeSet<Long> passedAbove = new TreeSet<>(); // guarded by this: beyond the mark

  /** Answered places still waiting for older tickets, the nearest to being free first. */
  private final PriorityQueue<Place> held =
      new PriorityQueue<>((a, b) -> Long.compare(a.follows, b.follows)); // guarded by this

  public StartOrder(AsyncScheduler async) {
    this.async = async;
  }

  /** Asks the store for {@code place}'s request, beside any other request asking now. */
  Grant ask(Place place, Supplier<Grant> request) {
    synchronized (this) {
      place.follows = tickets;
    }
    Grant grant = request.get();
    if (grant.outcome() == Outcome.QUEUED) {
      synchronized (this) {
        place.ticket = tickets++;
      }
    }
    return grant;
  }

  /**
   * Whether a request the store answered at once may start on the calling thread: nobody queued
   * before it is still on the way to its start.
   *
   * @return false when older requests have not been passed on yet; then pass the answer on by
   *     {@link #answer}
   */
  synchronized boolean leaveIfFirst(Place place) {
    return passedBelow >= place.follows;
  }

  /**
   * Records the answer {@code outcome} gives and passes it on once every older ticket has been
   * passed on; a rejection or failure is passed on at once. Answers are passed on by the
   * scheduler's thread only.
   */
  void answer(Place place, CompletableFuture<Grant> outcome) {
    outcome.whenComplete(
        (grant, failure) ->
            async.execute(
                () -> {
                  List<Place> ready = new ArrayList<>();
                  synchronized (this) {
                    place.grant = grant;
                    place.failure = failure;
                    if (failure != null || !grant.isGranted() || passedBelow >= place.follows) {
                      // a rejection (a timeout) starts nothing: it is not kept behind older ones
                      ready.add(place);
                    } else {
                      held.add(place);
                    }
                  }
                  while (!ready.isEmpty()) {
                    for (Place next : ready) {
                      if (next.failure != null) {
                        next.answer.completeExceptionally(next.failure);
                      } else {
                        next.answer.complete(next.grant); // hands its call to its executor
                      }
                    }
                    ready = passed(ready);
                  }
                }));
  }

  /** Marks {@code places} passed on; returns the held places that are free to go now. */
  private synchronized List<Place> passed(List<Place> places) {
    for (Place p : places) {
      if (p.ticket >= 0) {
        passedAbove.add(p.ticket);
      }
    }
    while (passedAbove.remove(passedBelow)) {
      passedBelow++;
    }
    List<Place> free = new ArrayList<>();
    while (!held.isEmpty() && held.peek().follows <= passedBelow) {
      free.add(held.poll());
    }
    return free;
  }
}
