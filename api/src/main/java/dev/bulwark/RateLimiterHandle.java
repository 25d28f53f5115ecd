package dev.bulwark;

import java.util.concurrent.Callable;

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
}
