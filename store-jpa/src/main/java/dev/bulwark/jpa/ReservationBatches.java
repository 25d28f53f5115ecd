package dev.bulwark.jpa;

import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
  static final class Reservation {
    private final RateSpec spec;
    private final long maxWaitNanos;

    Reservation(RateSpec spec, long maxWaitNanos) {
      this.spec = spec;
      this.maxWaitNanos = maxWaitNanos;
    }

    RateSpec spec() {
      return spec;
    }

    long maxWaitNanos() {
      return maxWaitNanos;
    }
  }

  /** The callers of one limit: those queued, and whether a batch of theirs is running. */
  private final class Lane {

    private final List<Reservation> queued = new ArrayList<>();

    /** The outcome of every reservation answered and not yet taken by its caller. */
    private final Map<Reservation, Object> answers = new IdentityHashMap<>();

    private boolean running;

    RateDecision reserve(Reservation mine) {
      List<Reservation> batch;
      synchronized (this) {
        queued.add(mine);
        boolean interrupted = false;
        // bounded by the running batch's transaction, which ends within the store's timeouts
        while (running && !answers.containsKey(mine)) {
          try {
            wait();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
        if (answers.containsKey(mine)) {
          return outcome(answers.remove(mine));
        }
        running = true;
        batch = new ArrayList<>(queued);
        queued.clear();
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
        synchronized (this) {
          for (int i = 0; i < outcomes.length; i++) {
            if (batch.get(i) == mine) {
              own = outcomes[i];
            } else {
              answers.put(batch.get(i), outcomes[i]);
            }
          }
          running = false;
          notifyAll();
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
