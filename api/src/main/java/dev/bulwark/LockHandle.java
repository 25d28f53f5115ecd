package dev.bulwark;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

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

  /**
   * Takes {@code key} in {@code mode} without blocking a thread while waiting: the stage completes
   * once the lock is held, or exceptionally with {@link LockTimeoutException}. Close the lock when
   * the work ends. As {@link BulkheadHandle#acquireAsync()}: a stage that had to wait completes on
   * Bulwark's own thread, and cancelling it before it completes withdraws the request.
   */
  CompletionStage<LockPermit> lockAsync(String key, LockMode mode);

  /**
   * Starts {@code work} once {@code key} is held in {@code mode}, without blocking a thread while
   * waiting, and holds the lock until the stage {@code work} returns completes, however it
   * completes; exceptionally with {@link LockTimeoutException} when the lock was not granted in
   * time. {@link LockContext} shows the lock while {@code work} itself runs (not in the stages it
   * chains). Cancellation as {@link BulkheadHandle#callAsync}.
   */
  <T> CompletionStage<T> callAsync(
      String key, LockMode mode, Callable<? extends CompletionStage<T>> work);
}
