package dev.bulwark;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/** Programmatic access to one named distributed rate limit. */
public interface RateLimiterHandle {

  String name();

  /** Runs {@code work} once a permit is granted, waiting up to the limit's waiting time. */
  <T> T call(Callable<T> work) throws Exception;

  /** Takes a permit, waiting up to the limit's waiting time for the reserved slot. */
  void acquire() throws RateLimitExceededException;

  /** Takes a permit only if one is free now. */
  boolean tryAcquire();

  /**
   * The permits available now across the cluster, read from the store in one round trip; takes
   * nothing.
   *
   * @throws UnsupportedOperationException when the store cannot be inspected
   * @throws StoreUnavailableException when the store cannot be reached
   */
  RateLimitSnapshot inspect();

  /**
   * Takes a permit without blocking a thread: the stage completes when the reserved slot starts, or
   * exceptionally with {@link RateLimitExceededException} when the next slot lies beyond the
   * waiting time. A delayed stage completes on Bulwark's own thread.
   */
  CompletionStage<Void> acquireAsync();

  /**
   * Starts {@code work} once its reserved slot starts, without blocking a thread meanwhile; the
   * returned stage completes like the work's, or exceptionally with {@link
   * RateLimitExceededException} (the work is then never started).
   */
  <T> CompletionStage<T> callAsync(Callable<? extends CompletionStage<T>> work);
}
