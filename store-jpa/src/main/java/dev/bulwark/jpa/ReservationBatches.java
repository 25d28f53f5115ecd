package dev.bulwark.jpa;

import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Decides the reservations this JVM's threads ask of one rate limit at the same time in one
 * transaction: a caller that finds no transaction of this JVM running on the limit runs one for
 * itself and for every caller queued by then, and callers that come while it runs queue for the
 * next. The callers of one JVM then take turns on the limit's row instead of contending for it, and
 * one transaction answers as many of them as came meanwhile. Each reservation is still one step of
 * core's arithmetic, taken in the order the callers queued.
 */
final class ReservationBatches {

  /** Decides a batch of reservations on one limit, in order: one decision per reservation. */
  private final Function<List<Reservation>, List<RateDecision>> decide;

  private final ConcurrentHashMap<String, Lane> lanes = new ConcurrentHashMap<>();

  ReservationBatches(Function<List<Reservation>, List<RateDecision>> decide) {
    this.decide = decide;
  }

  RateDecision reserve(RateSpec spec, long maxWaitNanos) {
    return lanes
        .computeIfAbsent(spec.name(), name -> new Lane())
        .reserve(new Reservation(spec, maxWaitNanos));
  }

  /** One caller's reservation; each is its own, however alike two callers' are. */
  record Reservation(RateSpec spec, long maxWaitNanos) {}

  /** The callers of one limit: those queued, and whether a batch of theirs is running. */
  private final class Lane {

    private final List<Reservation> queued = new ArrayList<>();

    /** The outcome of every reservation answered and not yet taken by its caller. */
    private final Map<Reservation, Object> answers = new IdentityHashMap<>();

    private boolean running;

    // a lock rather than a monitor: a virtual thread waiting for the batch does not pin its carrier
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition batchEnded = lock.newCondition();

    RateDecision reserve(Reservation mine) {
      List<Reservation> batch;
      lock.lock();
      try {
        queued.add(mine);
        // bounded by the running batch's transaction, which ends within the store's timeouts
        while (running && !answers.containsKey(mine)) {
          batchEnded.awaitUninterruptibly();
        }
        if (answers.containsKey(mine)) {
          return outcome(answers.remove(mine));
        }
        running = true;
        batch = new ArrayList<>(queued);
        queued.clear();
      } finally {
        lock.unlock();
      }
      Object[] outcomes = new Object[batch.size()];
      Object own = null;
      try {
        List<RateDecision> decisions = decide.apply(batch);
        for (int i = 0; i < outcomes.length; i++) {
          outcomes[i] = decisions.get(i);
        }
      } catch (RuntimeException | Error e) {
        Arrays.fill(outcomes, e);
      } finally {
        lock.lock();
        try {
          for (int i = 0; i < outcomes.length; i++) {
            if (batch.get(i) == mine) {
              own = outcomes[i];
            } else {
              answers.put(batch.get(i), outcomes[i]);
            }
          }
          running = false;
          batchEnded.signalAll();
        } finally {
          lock.unlock();
        }
      }
      return outcome(own);
    }

    private RateDecision outcome(Object outcome) {
      if (outcome instanceof RuntimeException e) {
        throw e;
      }
      if (outcome instanceof Error e) {
        throw e;
      }
      return (RateDecision) outcome;
    }
  }
}
