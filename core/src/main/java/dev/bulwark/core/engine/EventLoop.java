package dev.bulwark.core.engine;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/**
 * Keeps a synchronous call that would have to wait off a Vert.x event-loop thread (Quarkus, plain
 * Vert.x), which must never block. Vert.x is found by class presence, so Bulwark does not depend on
 * it; without it, no thread is an event loop.
 */
final class EventLoop {

  /** {@code io.vertx.core.Context.isOnEventLoopThread()}, or null without Vert.x. */
  private static final MethodHandle IS_CURRENT = find();

  private EventLoop() {}

  static boolean isCurrentThread() {
    if (IS_CURRENT == null) {
      return false;
    }
    try {
      return (boolean) IS_CURRENT.invokeExact();
    } catch (Throwable e) {
      return false;
    }
  }

  /**
   * Why a call that tried without waiting on an event loop (see {@link #isCurrentThread()}) is
   * refused rather than left to wait, and what to do instead.
   *
   * @param limit the limit, as messages name it ({@code bulkhead 'name'})
   * @param full the limit's own rejection of the try
   */
  static IllegalStateException wouldBlock(
      String limit, long maxWaitNanos, FaultToleranceException full) {
    return new IllegalStateException(
        "Bulwark: "
            + limit
            + " would have to wait (up to "
            + TimeUnit.NANOSECONDS.toMillis(maxWaitNanos)
            + " ms) on the Vert.x event-loop thread "
            + Thread.currentThread().getName()
            + ", which must never block. Return CompletionStage, CompletableFuture or Uni from"
            + " the guarded method (Bulwark then waits without blocking a thread), run it on a"
            + " worker thread (@Blocking on Quarkus), or give it a waiting time of 0.",
        full);
  }

  private static MethodHandle find() {
    try {
      Class<?> context =
          Class.forName("io.vertx.core.Context", false, EventLoop.class.getClassLoader());
      return MethodHandles.publicLookup()
          .findStatic(context, "isOnEventLoopThread", MethodType.methodType(boolean.class));
    } catch (ReflectiveOperationException | LinkageError e) {
      return null; // no Vert.x: no event loop to protect
    }
  }
}
