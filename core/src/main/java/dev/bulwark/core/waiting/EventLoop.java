package dev.bulwark.core.waiting;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Proxy;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/**
 * Keeps a synchronous call that would have to wait off a Vert.x event-loop thread (Quarkus, plain
 * Vert.x), which must never block. Vert.x is found by class presence, so Bulwark does not depend on
 * it; without it, no thread is an event loop.
 */
public final class EventLoop {

  /** {@code io.vertx.core.Context.isOnEventLoopThread()}, or null without Vert.x. */
  private static final MethodHandle IS_CURRENT = find();

  /** {@code io.vertx.core.Vertx.currentContext()}, or null without Vert.x. */
  private static final MethodHandle CURRENT_CONTEXT =
      IS_CURRENT == null ? null : findStatic("io.vertx.core.Vertx", "currentContext");

  /** {@code io.vertx.core.Context.runOnContext(Handler)}, or null without Vert.x. */
  private static final MethodHandle RUN_ON_CONTEXT = IS_CURRENT == null ? null : findRunOnContext();

  private static final Class<?> HANDLER = IS_CURRENT == null ? null : load("io.vertx.core.Handler");

  private EventLoop() {}

  public static boolean isCurrentThread() {
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
   * The current event loop's Vert.x context as an executor: what it runs, runs on that loop, as the
   * caller's own code would. Null when the current thread is no event loop.
   */
  public static Executor currentContext() {
    if (!isCurrentThread() || CURRENT_CONTEXT == null || RUN_ON_CONTEXT == null) {
      return null;
    }
    Object context;
    try {
      context = CURRENT_CONTEXT.invoke();
    } catch (Throwable e) {
      return null;
    }
    if (context == null) {
      return null;
    }
    return task -> {
      try {
        RUN_ON_CONTEXT.invoke(context, handler(task));
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException("Bulwark: could not hand work to a Vert.x context", e);
      }
    };
  }

  /** A {@code Handler<Void>} that runs {@code task}. */
  private static Object handler(Runnable task) {
    return Proxy.newProxyInstance(
        HANDLER.getClassLoader(),
        new Class<?>[] {HANDLER},
        (proxy, method, args) ->
            switch (method.getName()) {
              case "handle" -> {
                task.run();
                yield null;
              }
              case "equals" -> proxy == args[0];
              case "hashCode" -> System.identityHashCode(proxy);
              default -> "Bulwark task " + task;
            });
  }

  /**
   * Why a call that tried without waiting on an event loop (see {@link #isCurrentThread()}) is
   * refused rather than left to wait, and what to do instead.
   *
   * @param limit the limit, as messages name it ({@code bulkhead 'name'})
   * @param full the limit's own rejection of the try
   */
  public static IllegalStateException wouldBlock(
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

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, EventLoop.class.getClassLoader());
    } catch (ReflectiveOperationException | LinkageError e) {
      return null;
    }
  }

  private static MethodHandle findStatic(String owner, String name) {
    try {
      return MethodHandles.publicLookup()
          .findStatic(load(owner), name, MethodType.methodType(load("io.vertx.core.Context")));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  private static MethodHandle findRunOnContext() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(
              load("io.vertx.core.Context"),
              "runOnContext",
              MethodType.methodType(void.class, load("io.vertx.core.Handler")));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
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
