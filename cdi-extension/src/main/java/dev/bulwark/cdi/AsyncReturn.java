package dev.bulwark.cdi;

import dev.bulwark.Permit;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * How a guarded method that returns an asynchronous result is run under its limit: admitted without
 * blocking, invoked once admitted, holding its permit or lock until the result completes. Detected
 * once per method, from its declared return type, when its guard is built.
 */
abstract class AsyncReturn {

  /**
   * A limit's asynchronous entry: one of the engine's {@code callAsync}, starting the work on
   * {@code resume} when it had to wait (null: as the engine decides).
   */
  @FunctionalInterface
  interface Limit {
    CompletionStage<Object> callAsync(
        Executor resume, Callable<? extends CompletionStage<Object>> work);
  }

  static final String UNI = "io.smallrye.mutiny.Uni";

  /** {@code CompletionStage} or {@code CompletableFuture}: the engine's stage is returned as is. */
  private static final AsyncReturn STAGE =
      new AsyncReturn() {
        @Override
        Object proceed(InvocationContext context, AsyncResumption resumption, Limit limit) {
          return limit.callAsync(
              resumption.executor(), resumption.withRequestContext(() -> stage(context.proceed())));
        }
      };

  /** Whether {@link #of} runs a method returning {@code type} asynchronously. */
  static boolean isAsync(Class<?> type) {
    return type == CompletionStage.class
        || type == CompletableFuture.class
        || type.getName().equals(UNI);
  }

  /**
   * The strategy for {@code method}'s return type; null for a synchronous method. {@code Uni} is
   * known by name, so Mutiny is needed only by applications that return it.
   */
  static AsyncReturn of(Method method) {
    Class<?> type = method.getReturnType();
    if (type == CompletionStage.class || type == CompletableFuture.class) {
      return STAGE;
    }
    if (type.getName().equals(UNI)) {
      return new UniReturn();
    }
    return null;
  }

  /**
   * Runs the intercepted call under {@code limit} and returns what the method declares; a call that
   * had to wait starts as {@code resumption} says.
   */
  abstract Object proceed(InvocationContext context, AsyncResumption resumption, Limit limit);

  /**
   * Invokes the method of a call already admitted under {@code permit} and holds the permit until
   * the stage it returns completes (or at once, if it throws).
   */
  static Object heldUntilComplete(InvocationContext context, Permit permit) throws Exception {
    CompletionStage<Object> stage;
    try {
      stage = stage(context.proceed());
    } catch (Exception | Error e) {
      permit.close();
      throw e;
    }
    if (stage == null) {
      permit.close();
      return null;
    }
    stage.whenComplete((value, failure) -> permit.close());
    return stage;
  }

  /** The method's result: its declared type is a {@code CompletionStage} of some value. */
  @SuppressWarnings("unchecked") // a stage of the method's value, passed on and read as Object
  static CompletionStage<Object> stage(Object result) {
    return (CompletionStage<Object>) result;
  }
}
