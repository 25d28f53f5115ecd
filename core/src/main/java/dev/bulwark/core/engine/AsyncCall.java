package dev.bulwark.core.engine;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs asynchronous work under a limit: admits it through the chain's asynchronous path, starts the
 * work only once admitted, and holds the permit or lock until the work's stage completes, however
 * it completes. The caller gets a stage of its own at once; cancelling it withdraws a waiting
 * request, or cancels a running work's stage (when that is a {@link Future}), which releases the
 * permit as it completes.
 */
final class AsyncCall {

  private AsyncCall() {}

  /**
   * @param showLock whether the work sees the lock through {@code LockContext} while it is invoked
   *     (the synchronous part of it, on the thread that invokes it)
   */
  static <T> CompletableFuture<T> run(
      LimitLink chain,
      String key,
      LockMode mode,
      long maxWaitNanos,
      boolean showLock,
      Callable<? extends CompletionStage<T>> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    chain
        .acquireAsync(key, mode, maxWaitNanos, result)
        .whenComplete(
            (permit, failure) -> {
              if (failure != null) {
                result.completeExceptionally(Stages.unwrap(failure));
              } else if (result.isDone()) {
                permit.close(); // the caller gave up as the permit arrived
              } else {
                start(permit, showLock, work, result);
              }
            });
    return result;
  }

  /** Admits one call and hands its permit, as {@code view} shows it, to the caller's stage. */
  static <P> CompletableFuture<P> admit(
      LimitLink chain,
      String key,
      LockMode mode,
      long maxWaitNanos,
      Function<? super LockPermit, P> view) {
    CompletableFuture<P> result = new CompletableFuture<>();
    chain
        .acquireAsync(key, mode, maxWaitNanos, result)
        .whenComplete(
            (permit, failure) -> {
              if (failure != null) {
                result.completeExceptionally(Stages.unwrap(failure));
              } else if (!result.complete(view.apply(permit))) {
                permit.close(); // the caller gave up as the permit arrived
              }
            });
    return result;
  }

  private static <T> void start(
      LockPermit permit,
      boolean showLock,
      Callable<? extends CompletionStage<T>> work,
      CompletableFuture<T> result) {
    CompletionStage<T> stage;
    if (showLock) {
      ThreadLocks.push(permit);
    }
    try {
      stage = work.call();
    } catch (Throwable e) {
      permit.close();
      result.completeExceptionally(e);
      return;
    } finally {
      if (showLock) {
        ThreadLocks.pop(permit);
      }
    }
    if (stage == null) {
      permit.close();
      result.completeExceptionally(
          new NullPointerException("an asynchronous call returned null instead of a stage"));
      return;
    }
    stage.whenComplete(
        (value, failure) -> {
          try {
            permit.close();
          } finally {
            if (failure != null) {
              result.completeExceptionally(Stages.unwrap(failure));
            } else {
              result.complete(value);
            }
          }
        });
    if (stage instanceof Future<?> running) {
      result.whenComplete(
          (value, failure) -> {
            if (result.isCancelled()) {
              running.cancel(false);
            }
          });
    }
  }
}
