package dev.bulwark.spi;

import dev.bulwark.BulkheadSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The bulkhead primitive of a store: a counted set of leased holders plus a first-come,
 * first-served queue, each operation one atomic step in the store. Request ids are unique per JVM;
 * a store shared by several JVMs qualifies them with its own instance id.
 */
public interface PermitStore {

  /**
   * Grants a permit if fewer than {@code spec.limit()} live holders exist and nobody is queued
   * ahead; otherwise queues the request when {@code mayQueue}, else rejects it.
   */
  Grant acquire(PermitSpec spec, long requestId, boolean mayQueue);

  /** The state of a queued request, for a waiter that may have missed its wake-up. */
  Grant poll(PermitSpec spec, long requestId);

  /**
   * Withdraws a queued request. Returns {@link Grant#REJECTED} when it was withdrawn, or {@link
   * Grant#GRANTED} when the permit had been handed over meanwhile (the caller then holds it).
   */
  Grant cancel(PermitSpec spec, long requestId);

  /**
   * Records the definition this JVM enforces under {@code spec.name()}. A store shared by several
   * JVMs returns how another JVM recorded it when that differs in the limit, so the engine can
   * report the conflict; the default records nothing.
   */
  default Optional<String> define(PermitSpec spec) {
    return Optional.empty();
  }

  /**
   * Releases a held permit and hands it to the head of the queue, if any. Releasing what is not
   * held changes nothing.
   *
   * @return false when the store no longer held it: its lease had run out (a store whose leases
   *     expire), or it had been released before
   */
  boolean release(PermitSpec spec, long requestId);

  /**
   * Applies {@code operations} on one bulkhead as one atomic step of the store (one script call,
   * one transaction), one by one in the given order: each gets the answer it would get sent alone
   * in that order. A release answers {@link Grant#GRANTED} when it released and {@link
   * Grant#REJECTED} when the store no longer held it. A hand-over the step makes to a request of
   * this JVM may be told to the {@link GrantListener} as soon as the reply arrives.
   *
   * <p>The default sends them one at a time: correct, and no cheaper. A store that overrides it
   * says so with {@link BulwarkStore#batches()}.
   *
   * @return one answer per operation, in order
   * @throws StoreException when the step failed: no answer of the batch is known
   */
  default List<Grant> apply(PermitSpec spec, List<Operation> operations) {
    List<Grant> answers = new ArrayList<>(operations.size());
    for (Operation operation : operations) {
      answers.add(
          switch (operation.kind()) {
            case ACQUIRE -> acquire(spec, operation.requestId(), operation.mayQueue());
            case POLL -> poll(spec, operation.requestId());
            case CANCEL -> cancel(spec, operation.requestId());
            case RELEASE -> release(spec, operation.requestId()) ? Grant.GRANTED : Grant.REJECTED;
          });
    }
    return answers;
  }

  /**
   * {@link #apply} for a store that can have several batches in flight (see {@link
   * BulwarkStore#batchesInFlight()}): sends the batch and answers later, without holding the
   * calling thread for the round trip. Batches handed over one after the other are applied in that
   * order. The default applies it on the calling thread.
   *
   * @return the answers of {@link #apply}, or its failure
   */
  default CompletionStage<List<Grant>> applyAsync(PermitSpec spec, List<Operation> operations) {
    try {
      return CompletableFuture.completedFuture(apply(spec, operations));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Reads the live holders and queued requests of a bulkhead, for operators; changes nothing (a
   * holder or waiter whose lease ran out is left out, not removed). The default, for a store that
   * does not offer it, throws.
   *
   * @throws UnsupportedOperationException when the store cannot be inspected
   */
  default BulkheadSnapshot inspect(PermitSpec spec) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot inspect bulkheads");
  }
}
