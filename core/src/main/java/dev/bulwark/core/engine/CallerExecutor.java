package dev.bulwark.core.engine;

import dev.bulwark.core.waiting.EventLoop;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Where an asynchronous call that had to wait starts once admitted, when its caller named no
 * executor: on the caller's Vert.x event loop when it was one (its context, as if it had not
 * waited), else on the JDK's pool for asynchronous stages, one call of a limit after the other in
 * the order the limit admitted them (see {@link #inOrder()}). Never on a Bulwark thread, which
 * serves every limit's waiters and would run the calls of two limits one after the other.
 */
final class CallerExecutor {

  /** The JDK's executor of {@code *Async} stages (a thread per task on a single-core machine). */
  private static final Executor ASYNC_POOL = new CompletableFuture<Void>().defaultExecutor();

  private CallerExecutor() {}

  /**
   * Captured on the caller's thread, when the call is made: its event loop, or {@code otherwise}.
   */
  static Executor current(Executor otherwise) {
    Executor loop = EventLoop.currentContext();
    return loop != null ? loop : otherwise;
  }

  /**
   * A limit's own executor on the JDK's pool: runs its tasks one at a time, in the order they came,
   * so calls start in the order the limit admitted them, while the calls of other limits run beside
   * them.
   */
  static Executor inOrder() {
    return new InOrder();
  }

  private static final class InOrder implements Executor {

    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>(); // guarded by this
    private boolean draining; // guarded by this

    @Override
    public void execute(Runnable task) {
      synchronized (this) {
        tasks.addLast(task);
        if (draining) {
          return;
        }
        draining = true;
      }
      try {
        ASYNC_POOL.execute(this::drain);
      } catch (RuntimeException e) {
        synchronized (this) {
          tasks.remove(task);
          draining = false;
        }
        throw e;
      }
    }

    private void drain() {
      while (true) {
        Runnable next;
        synchronized (this) {
          next = tasks.pollFirst();
          if (next == null) {
            draining = false;
            return;
          }
        }
        try {
          next.run();
        } catch (RuntimeException | Error e) {
          Thread t = Thread.currentThread();
          t.getUncaughtExceptionHandler().uncaughtException(t, e);
        }
      }
    }
  }
}
