package dev.bulwark;

import java.util.Optional;
import java.util.concurrent.Callable;

/** Programmatic access to one named family of keyed read-write locks. */
public interface LockHandle {

  String name();

  /** Runs {@code work} holding {@code key} in {@code mode}, waiting up to the waiting time. */
  <T> T call(String key, LockMode mode, Callable<T> work) throws Exception;

  /** Waits up to the lock's waiting time for {@code key} in {@code mode}. */
  LockPermit lock(String key, LockMode mode) throws LockTimeoutException;

  /** Takes {@code key} in {@code mode} only if it is free now. */
  Optional<LockPermit> tryLock(String key, LockMode mode);

  /**
   * The readers, writer and queue of {@code key} across the cluster now, read from the store in one
   * round trip.
   *
   * @throws UnsupportedOperationException when the store cannot be inspected
   * @throws StoreUnavailableException when the store cannot be reached
   */
  LockKeySnapshot inspect(String key);
}
