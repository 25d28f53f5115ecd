package dev.bulwark;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/** Programmatic access to one named distributed bulkhead. */
public interface BulkheadHandle {

  String name();

  /** Runs {@code work} under a permit, waiting up to the bulkhead's waiting time for one. */
  <T> T call(Callable<T> work) throws Exception;

  /** Waits up to the bulkhead's waiting time for a permit. */
  Permit acquire() throws BulkheadFullException;

  /** Takes a permit only if one is free now. */
  Optional<Permit> tryAcquire();

  /**
   * The bulkhead across the cluster now: holders, queue and available permits, read from the store
   * in one round trip.
   *
   * @throws UnsupportedOperationException when the store cannot be inspected
   * @throws StoreUnavailableException when the store cannot be reached
   */
  BulkheadSnapshot inspect();

  /**
   * Takes a permit without blocking a thread while waiting for it: the stage completes once the
   * permit is held, or exceptionally with {@link BulkheadFullException} when none was free within
   * the waiting time. Close the permit when the work ends. A stage that had to wait completes on
   * Bulwark's own thread: continue on an executor of yours ({@code thenApplyAsync(…, executor)})
   * for anything that blocks. Cancelling the stage before it completes withdraws the request.
   */
  CompletionStage<Permit> acquireAsync();

  /**
   * Starts {@code work} once a permit is held, without blocking a thread while waiting, and holds
   * the permit until the stage {@code work} returns completes, however it completes (a value, an
   * exception, a cancellation). The returned stage completes like the work's, after the release;
   * exceptionally with {@link BulkheadFullException} when no permit was free within the waiting
   * time (the work is then never started). Cancelling it withdraws a waiting request, or cancels
   * the work's stage when that is a {@link java.util.concurrent.Future}.
   */
  <T> CompletionStage<T> callAsync(Callable<? extends CompletionStage<T>> work);
}
