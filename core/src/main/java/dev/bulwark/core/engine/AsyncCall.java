package dev.bulwark.core.engine;

import dev.bulwark.LockPermit;
import dev.bulwark.core.chain.LimitCall;
import dev.bulwark.core.chain.LimitLink;
import dev.bulwark.core.chain.ThreadLocks;
import dev.bulwark.core.waiting.AsyncScheduler;
import dev.bulwark.core.waiting.EventLoop;
import dev.bulwark.core.waiting.Stages;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Runs asynchronous work under a limit: admits it through the chain's asynchronous path, starts the
 * work only once admitted, and holds the permit or lock until the work's stage completes, however
 * it completes. The caller gets a stage of its own at once; cancelling it withdraws a waiting
 * request, or cancels a running work's stage (when that is a {@link Future}), which releases the
 * permit as it completes.
 *
 * <p>Where things run: a call admitted at once starts on the calling thread; a call that had to
 * wait starts on the caller's executor (the one it names, else as {@link CallerExecutor} says),
 * never on the engine's thread, so the waited calls of two limits run side by side, each where its
 * caller would have run it. A Vert.x event loop never waits for the store: a call made there is
 * admitted on a store-call thread, and a permit released there is released on one, after which the
 * caller's stage completes back on the loop.
 */
final class AsyncCall {

  private AsyncCall() {}

  /**
   * @param showLock whether the work sees the lock through {@code LockContext} while it is invoked
   *     (the synchronous part of it, on the thread that invokes it)
   * @param resume where the work starts when it had to wait (see {@link CallerExecutor})
   */
  static <T> CompletableFuture<T> run(
      LimitLink chain,
      AsyncScheduler async,
      LimitCall call,
      boolean showLock,
      Executor resume,
      Callable<? extends CompletionStage<T>> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    whenAdmitted(
        admission(chain, async, call, result),
        resume,
        result,
        async,
        (permit, failure) -> {
          if (failure != null) {
            result.completeExceptionally(Stages.unwrap(failure));
          } else if (result.isDone()) {
            release(async, permit, () -> {}); // the caller gave up as the permit arrived
          } else {
            start(permit, async, showLock, work, result);
          }
        });
    return result;
  }

  /**
   * Admits one call and hands its permit, as {@code view} shows it, to the caller's stage, on
   * {@code resume} when it had to wait.
   */
  static <P> CompletableFuture<P> admit(
      LimitLink chain,
      AsyncScheduler async,
      LimitCall call,
      Executor resume,
      Function<? super LockPermit, P> view) {
    CompletableFuture<P> result = new CompletableFuture<>();
    whenAdmitted(
        admission(chain, async, call, result),
        resume,
        result,
        async,
        (permit, failure) -> {
          if (failure != null) {
            result.completeExceptionally(Stages.unwrap(failure));
          } else if (!result.complete(view.apply(permit))) {
            release(async, permit, () -> {}); // the caller gave up as the permit arrived
          }
        });
    return result;
  }

  /**
   * The chain's admission; asked on a store-call thread when the caller is an event loop, which
   * must not wait for the store's answer.
   */
  private static CompletableFuture<LockPermit> admission(
      LimitLink chain, AsyncScheduler async, LimitCall call, CompletableFuture<?> caller) {
    if (!EventLoop.isCurrentThread()) {
      return chain.acquireAsync(call, caller);
    }
    CompletableFuture<LockPermit> admitted = new CompletableFuture<>();
    try {
      async
          .storeCalls()
          .execute(
              () ->
                  chain
                      .acquireAsync(call, caller)
                      .whenComplete(
                          (permit, failure) -> {
                            if (failure != null) {
                              admitted.completeExceptionally(failure);
                            } else {
                              admitted.complete(permit);
                            }
                          }));
    } catch (RejectedExecutionException closing) {
      return chain.acquireAsync(call, caller);
    }
    return admitted;
  }

  /**
   * Runs {@code then} with the admission's outcome: at once when it is already decided (on the
   * calling thread), else on {@code startOn}. When {@code startOn} takes no more work (shut down),
   * the call cannot start: its permit goes back and the caller's stage fails.
   */
  private static void whenAdmitted(
      CompletableFuture<LockPermit> admitted,
      Executor startOn,
      CompletableFuture<?> result,
      AsyncScheduler async,
      BiConsumer<LockPermit, Throwable> then) {
    if (admitted.isDone()) {
      admitted.whenComplete(then);
      return;
    }
    admitted.whenComplete(
        (permit, failure) -> {
          try {
            startOn.execute(() -> then.accept(permit, failure));
          } catch (RejectedExecutionException e) {
            if (permit != null) {
              release(async, permit, () -> {});
            }
            result.completeExceptionally(failure != null ? Stages.unwrap(failure) : e);
          }
        });
  }

  private static <T> void start(
      LockPermit permit,
      AsyncScheduler async,
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
      release(async, permit, () -> result.completeExceptionally(e));
      return;
    } finally {
      if (showLock) {
        ThreadLocks.pop(permit);
      }
    }
    if (stage == null) {
      release(
          async,
          permit,
          () ->
              result.completeExceptionally(
                  new NullPointerException(
                      "an asynchronous call returned null instead of a stage")));
      return;
    }
    stage.whenComplete(
        (value, failure) ->
            release(
                async,
                permit,
                () -> {
                  if (failure != null) {
                    result.completeExceptionally(Stages.unwrap(failure));
                  } else {
                    result.complete(value);
                  }
                }));
    if (stage instanceof Future<?> running) {
      result.whenComplete(
          (value, failure) -> {
            if (result.isCancelled()) {
              running.cancel(false);
            }
          });
    }
  }

  /**
   * Releases {@code permit}, then runs {@code then} (which completes the caller's stage, so the
   * caller sees the permit back when it sees the result). On an event loop the release goes to a
   * store-call thread and {@code then} comes back to the loop, which never waits for the store.
   */
  private static void release(AsyncScheduler async, LockPermit permit, Runnable then) {
    Executor loop = EventLoop.currentContext();
    if (loop == null) {
      try {
        permit.close();
      } finally {
        then.run();
      }
      return;
    }
    Runnable releaseThenReturn =
        () -> {
          try {
            permit.close();
          } finally {
            loop.execute(then);
          }
        };
    try {
      async.storeCalls().execute(releaseThenReturn);
    } catch (RejectedExecutionException closing) {
      releaseThenReturn.run();
    }
  }
}
