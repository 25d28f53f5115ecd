package dev.bulwark;

import java.util.Optional;
import java.util.concurrent.Callable;

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
}
