package dev.bulwark.core.engine;

import dev.bulwark.spi.Grant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Keeps the asynchronous calls of one bulkhead in this JVM starting in the order the store granted
 * them. A store serves its queue first come, first served, so a call granted at once was granted
 * after every older request that queued; but an older call's hand-over may still be on its way (the
 * Redis store's notice, the scheduler's queue) when the newer one is answered. So answers are
 * passed on in the order the requests asked, each once every older one has its answer.
 *
 * <p>"Older" must mean older in the store's queue, so this JVM's asynchronous requests of one
 * bulkhead ask the store one at a time: one round trip at a time per bulkhead and JVM on the
 * asynchronous path (the synchronous path does not take part). An older request still unanswered
 * when a newer one is granted at once has been granted too (the store is FIFO), so the newer one
 * waits only for a hand-over already on its way.
 */
final class StartOrder {

  /** One request's place in line and the stage its answer goes to. */
  static final class Place {
    private final CompletableFuture<Grant> answer = new CompletableFuture<>();
    private Grant grant; // guarded by the StartOrder
    private Throwable failure; // guarded by the StartOrder
    private boolean answered; // guarded by the StartOrder

    /** Completes with the request's answer, after every older request's. */
    CompletableFuture<Grant> answer() {
      return answer;
    }
  }

  /**
   * Held across the store's round trip: a lock rather than a monitor, so that a virtual thread
   * waiting for the store does not pin its carrier (Java 21 to 23 pin inside {@code synchronized}).
   */
  private final ReentrantLock asking = new ReentrantLock();

  private final ArrayDeque<Place> line = new ArrayDeque<>(); // guarded by this
  private boolean passingOn; // guarded by this: answers left the line but have not started yet
  private final AsyncScheduler async;

  StartOrder(AsyncScheduler async) {
    this.async = async;
  }

  /** Takes a place in line and asks the store, after every older request asked. */
  Grant ask(Place place, Supplier<Grant> request) {
    asking.lock();
    try {
      synchronized (this) {
        line.addLast(place);
      }
      return request.get();
    } finally {
      asking.unlock();
    }
  }

  /**
   * Leaves the line at once when {@code place} is at its head: nobody older waits for a hand-over,
   * so a request the store answered at once starts on the calling thread.
   *
   * @return false when older requests are still unanswered; then pass the answer on by {@link
   *     #answer}
   */
  synchronized boolean leaveIfFirst(Place place) {
    if (line.peekFirst() != place || passingOn) {
      return false;
    }
    line.pollFirst();
    return true;
  }

  /**
   * Records the answer {@code outcome} gives and passes on every grant now at the head of the line,
   * in order; a rejection or failure is passed on at once. Answers are passed on by the scheduler's
   * thread only.
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
                    place.answered = true;
                    if (failure != null || !grant.isGranted()) {
                      // nothing to start: a rejection (a timeout) is not kept behind older waiters
                      line.remove(place);
                      ready.add(place);
                    }
                    while (!line.isEmpty() && line.peekFirst().answered) {
                      ready.add(line.pollFirst());
                    }
                    passingOn = true;
                  }
                  try {
                    for (Place next : ready) {
                      if (next.failure != null) {
                        next.answer.completeExceptionally(next.failure);
                      } else {
                        next.answer.complete(next.grant); // starts its call, on this thread
                      }
                    }
                  } finally {
                    synchronized (this) {
                      passingOn = false;
                    }
                  }
                }));
  }
}
