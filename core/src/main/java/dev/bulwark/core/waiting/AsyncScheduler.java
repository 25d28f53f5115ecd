package dev.bulwark.core.waiting;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one thread per engine on which asynchronous calls wait without a thread of their own: it runs
 * their deadlines, wake-up checks and rate-limit delays, and resumes a call once it is admitted, in
 * the order the grants arrived. Started on the first asynchronous call that has to wait, so an
 * application that never waits asynchronously has no such thread.
 *
 * <p>Calls still waiting when the engine closes fail with an {@link IllegalStateException}.
 *
 * <p>Resuming here, rather than on the thread that reports a hand-over, keeps the guarded method
 * out of the store's own threads (the local store reports under its lock, the Redis store on its
 * wake-up subscription) and bounds the stack when one completion admits the next. The guarded work
 * itself never runs here: {@code engine.AsyncCall} starts it on the caller's executor.
 *
 * <p>Besides that thread, a few store-call threads, made on demand, take the store round trips a
 * thread that must never wait (a Vert.x event loop) would otherwise make: the admission of a call
 * made there, the release of a call whose result completes there, the withdrawal of a request its
 * caller gave up there.
 */
public final class AsyncScheduler implements Executor, AutoCloseable {

  private final AtomicInteger resuming = new AtomicInteger();
  private final Set<CompletableFuture<?>> waiting = ConcurrentHashMap.newKeySet();

  /** Store-call threads: enough that one slow round trip does not hold up the others. */
  private static final int STORE_CALL_THREADS = 64;

  private ScheduledThreadPoolExecutor thread; // guarded by this
  private ThreadPoolExecutor storeCalls; // guarded by this
  private volatile boolean closed; // written under this

  /**
   * Runs {@code task} on the scheduler's thread, after the tasks already handed to it; once the
   * engine is closed, on the calling thread, so that what the close fails still reaches its caller.
   */
  @Override
  public void execute(Runnable task) {
    if (isClosed()) {
      task.run();
      return;
    }
    resuming.incrementAndGet();
    try {
      executor()
          .execute(
              () -> {
                try {
                  task.run();
                } finally {
                  resuming.decrementAndGet();
                }
              });
    } catch (RuntimeException e) {
      resuming.decrementAndGet();
      throw e;
    }
  }

  /**
   * {@code value} as a stage that completes after every resumption already handed to this thread: a
   * call granted at once must not start before an older waiter that was granted just before it (in
   * the same step of the store) and is still on its way here.
   */
  <T> CompletableFuture<T> inOrder(T value) {
    if (resuming.get() == 0) {
      return CompletableFuture.completedFuture(value);
    }
    CompletableFuture<T> later = new CompletableFuture<>();
    execute(() -> later.complete(value));
    return later;
  }

  /**
   * Fails {@code wait} when the engine closes before it completes: a call waiting then would
   * otherwise wait for a timer that never fires.
   */
  public void track(CompletableFuture<?> wait) {
    waiting.add(wait);
    wait.whenComplete((value, failure) -> waiting.remove(wait));
    if (isClosed()) {
      wait.completeExceptionally(closedWhileWaiting());
    }
  }

  public ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
    return executor().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Runs {@code storeCall} on a store-call thread when the current thread is an event loop, which
   * must never wait for the store; else at once, on the current thread.
   */
  void offEventLoop(Runnable storeCall) {
    if (EventLoop.isCurrentThread()) {
      try {
        storeCalls().execute(storeCall);
        return;
      } catch (RejectedExecutionException closing) {
        // the engine closed meanwhile: made here, as after the close
      }
    }
    storeCall.run();
  }

  /**
   * The store-call threads; once the engine is closed, the calling thread (what is released then
   * still reaches the store, or its lease runs out).
   */
  public synchronized Executor storeCalls() {
    if (closed) {
      return Runnable::run;
    }
    if (storeCalls == null) {
      storeCalls =
          new ThreadPoolExecutor(
              STORE_CALL_THREADS,
              STORE_CALL_THREADS,
              30,
              TimeUnit.SECONDS,
              new LinkedBlockingQueue<>(),
              task -> {
                Thread t = new Thread(task, "bulwark-store-call");
                t.setDaemon(true);
                return t;
              });
      storeCalls.allowCoreThreadTimeOut(true);
    }
    return storeCalls;
  }

  private synchronized ScheduledExecutorService executor() {
    if (thread == null) {
      if (closed) {
        throw new IllegalStateException("Bulwark: the engine is closed");
      }
      thread =
          new ScheduledThreadPoolExecutor(
              1,
              task -> {
                Thread t = new Thread(task, "bulwark-async");
                t.setDaemon(true);
                return t;
              });
      thread.setRemoveOnCancelPolicy(true); // a granted call's deadline is dropped, not kept
    }
    return thread;
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (thread != null) {
        thread.shutdownNow();
      }
      if (storeCalls != null) {
        storeCalls.shutdown(); // releases already handed over still reach the store
      }
    }
    for (CompletableFuture<?> wait : waiting) {
      wait.completeExceptionally(closedWhileWaiting());
    }
  }

  private boolean isClosed() {
    return closed;
  }

  private static IllegalStateException closedWhileWaiting() {
    return new IllegalStateException("Bulwark: the engine was closed while the call waited");
  }
}
