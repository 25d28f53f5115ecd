package dev.bulwark.cdi;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/**
 * How an asynchronous guarded call that had to wait is started once admitted: where the container
 * would have run it, never on a Bulwark thread.
 *
 * <ul>
 *   <li>On the executor MicroProfile Fault Tolerance runs {@code @Asynchronous} methods on
 *       (SmallRye's, when it is deployed), so the waited calls of several limits run side by side
 *       as FT would run them; without it, as the engine decides (the caller's Vert.x event loop, or
 *       the limit's own order on the JDK's asynchronous pool).
 *   <li>With a request context active while the method is invoked, when the call was intercepted
 *       with one: the one on the caller's thread, when it started there; else one of its own for
 *       the invocation, as FT activates one around an {@code @Asynchronous} invocation (a request
 *       context is bound to its thread, so the caller's own cannot follow the call).
 * </ul>
 */
final class AsyncResumption {

  private static final BulwarkLog LOG = BulwarkLog.of(AsyncResumption.class);

  /** SmallRye Fault Tolerance's bean that holds its asynchronous executor, known by name. */
  private static final String FT_EXECUTORS = "io.smallrye.faulttolerance.ExecutorHolder";

  private final BeanManager beans;
  private final Instance<RequestContextController> controllers;
  private volatile Optional<Executor> faultTolerancePool; // looked up at the first call

  AsyncResumption(BeanManager beans) {
    this.beans = beans;
    this.controllers = beans.createInstance().select(RequestContextController.class);
  }

  /** Where a waited call starts: FT's executor when deployed, else null (the engine decides). */
  Executor executor() {
    Optional<Executor> pool = faultTolerancePool;
    if (pool == null) {
      pool = lookUpFaultTolerancePool();
      faultTolerancePool = pool;
    }
    return pool.orElse(null);
  }

  /**
   * {@code work}, invoked with a request context active when one is active now (on the caller's
   * thread, at interception); {@code work} itself when none is.
   */
  <T> Callable<T> withRequestContext(Callable<T> work) {
    if (!requestContextActive()) {
      return work;
    }
    return () -> {
      if (requestContextActive()) {
        return work.call(); // started on the caller's thread, in its context
      }
      RequestContextController controller = controllers.get();
      boolean activated = controller.activate();
      try {
        return work.call();
      } finally {
        if (activated) {
          controller.deactivate();
        }
        controllers.destroy(controller);
      }
    };
  }

  private boolean requestContextActive() {
    try {
      return beans.getContext(RequestScoped.class).isActive();
    } catch (ContextNotActiveException e) {
      return false;
    }
  }

  private Optional<Executor> lookUpFaultTolerancePool() {
    Class<?> holder = load(FT_EXECUTORS);
    if (holder == null) {
      return Optional.empty();
    }
    try {
      Instance<?> found = beans.createInstance().select(holder);
      if (!found.isResolvable()) {
        return Optional.empty();
      }
      Object executors = found.get();
      Method pool = holder.getMethod("getAsyncExecutor");
      return Optional.ofNullable((Executor) pool.invoke(executors));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.warn(LogMessage.NO_FT_EXECUTOR, e);
      return Optional.empty();
    }
  }

  private static Class<?> load(String name) {
    for (ClassLoader loader :
        new ClassLoader[] {
          Thread.currentThread().getContextClassLoader(), AsyncResumption.class.getClassLoader()
        }) {
      if (loader == null) {
        continue;
      }
      try {
        return Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        // not there: the next loader, or no Fault Tolerance
      }
    }
    return null;
  }
}
