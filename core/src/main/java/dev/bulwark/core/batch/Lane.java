package dev.bulwark.core.batch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The store calls of one limit in this JVM, one batch at a time: while a batch is in flight, the
 * operations callers start queue, and the next batch takes them (at most {@code maxSize}) in the
 * order they came. A caller that finds nothing in flight sends its operation at once, alone, on its
 * own thread, so a call nobody else contends with costs what a single store call costs.
 *
 * <p>Who sends the next batch: a caller that waits for its own answer anyway. When a batch ends and
 * operations are queued, the oldest one whose caller waits on its thread is told to send the next
 * batch, which holds its own operation; when only operations nobody waits on are queued (releases,
 * asynchronous calls), a thread of the background executor sends them. So no caller sends a batch
 * after its own answer came, and a release never waits on its caller's thread.
 *
 * <p>The stages {@link #submit} and {@link #post} return complete on the thread that sent their
 * batch, before that thread hands the lane on: what depends on them must not wait for this lane
 * there. A {@link #call} made there fails at once rather than wait for a batch only its own thread
 * could send.
 *
 * @param <O> an operation
 * @param <R> its answer
 */
public final class Lane<O, R> {

  /** Sends one batch as one store call; one answer per operation, in order. */
  @FunctionalInterface
  public interface Sender<O, R> {
    List<R> send(List<O> operations);
  }

  private final Sender<O, R> sender;
  private final int maxSize;
  private final Executor background;

  // a lock rather than a monitor: a virtual thread waiting in it does not pin its carrier
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();
  private final ArrayDeque<Pending<O, R>> queued = new ArrayDeque<>();

  /** Whether a batch is being sent or a sender is appointed; guarded by lock. */
  private boolean busy;

  /** The thread inside {@link #send} (in the sender or completing its answers), else null. */
  private volatile Thread sending;

  /**
   * @param maxSize the most operations one batch carries
   * @param background sends batches that nobody waiting on a thread can send
   */
  public Lane(Sender<O, R> sender, int maxSize, Executor background) {
    if (maxSize < 1) {
      throw new IllegalArgumentException("maxSize must be at least 1, was " + maxSize);
    }
    this.sender = sender;
    this.maxSize = maxSize;
    this.background = background;
  }

  /**
   * Sends {@code operation} and waits for its answer, uninterruptibly, as a single store call does
   * (an interrupt that comes meanwhile is kept for the caller).
   *
   * <p>The caller's interrupt status is set aside while it waits and while it sends, and set again
   * once its answer is in: the batch it sends carries other callers' operations, and a store call
   * made by an interrupted thread may be cut short (a virtual thread's socket is closed, a
   * connection pool's wait throws), which would fail every operation in the batch.
   *
   * @throws RuntimeException the failure of the batch that carried it
   */
  public R call(O operation) {
    if (sending == Thread.currentThread()) {
      throw new IllegalStateException(
          "Lane.call was made on the thread sending this lane's batch (from the sender or from"
              + " a stage its batch completes): it would wait for a batch only this thread sends");
    }
    Pending<O, R> mine = new Pending<>(operation, Thread.currentThread());
    boolean sends = enqueue(mine);
    boolean interrupted = Thread.interrupted();
    try {
      if (sends) {
        drive(mine);
      } else if (mine.awaitAnswerOrTurn()) {
        drive(mine);
      }
    } finally {
      if (interrupted || mine.interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return mine.answer();
  }

  /**
   * Sends {@code operation} without waiting for a thread: when nothing is in flight it is sent at
   * once on the calling thread (the returned stage is then complete), otherwise with the next
   * batch.
   */
  public CompletableFuture<R> submit(O operation) {
    Pending<O, R> mine = new Pending<>(operation, null);
    boolean sends = enqueue(mine);
    if (sends) {
      boolean interrupted = Thread.interrupted(); // set aside while sending, as in call
      try {
        drive(mine);
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
    return mine.stage;
  }

  /**
   * Sends {@code operation} off the calling thread: with the next batch, or alone on a background
   * thread at once; the stage completes there.
   */
  public CompletableFuture<R> post(O operation) {
    Pending<O, R> mine = new Pending<>(operation, null);
    boolean sends = enqueue(mine);
    if (sends) {
      sendInBackground();
    }
    return mine.stage;
  }

  /**
   * Queues {@code pending} behind what is queued.
   *
   * @return whether its caller sends it: nothing was in flight, and the lane is now busy with it
   */
  private boolean enqueue(Pending<O, R> pending) {
    lock.lock();
    try {
      queued.add(pending);
      boolean sends = !busy;
      busy = true;
      return sends;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until nothing is queued or in flight, at most {@code timeout}: what a closing engine owes
   * the store (releases posted) is sent first.
   *
   * @return whether the lane is idle
   */
  public boolean flush(long timeout, TimeUnit unit) {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    lock.lock();
    try {
      while (busy) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        idle.awaitNanos(left);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !busy;
    } finally {
      lock.unlock();
    }
  }

  /** How many operations wait for the next batch. */
  public int queuedCount() {
    lock.lock();
    try {
      return queued.size();
    } finally {
      lock.unlock();
    }
  }

  private void sendInBackground() {
    try {
      background.execute(() -> drive(null));
    } catch (RejectedExecutionException e) {
      drive(null); // the executor is shut down: the engine closes, send what it owes from here
    }
  }

  /**
   * Sends batches until {@code own} is answered (all queued, for the background), then hands the
   * lane on: to the oldest queued caller that waits on a thread, else to the background, else idle.
   */
  private void drive(Pending<O, R> own) {
    while (true) {
      List<Pending<O, R>> batch = new ArrayList<>(Math.min(maxSize, 16));
      lock.lock();
      try {
        for (int i = 0; i < maxSize && !queued.isEmpty(); i++) {
          batch.add(queued.poll());
        }
      } finally {
        lock.unlock();
      }
      send(batch);
      Pending<O, R> next;
      lock.lock();
      try {
        if (queued.isEmpty()) {
          busy = false;
          idle.signalAll();
          return;
        }
        if (own == null || !own.stage.isDone()) {
          continue; // the background, or a sender whose own operation did not fit yet
        }
        next = oldestWaitingOnAThread();
        if (next != null) {
          next.appoint();
          return;
        }
      } finally {
        lock.unlock();
      }
      sendInBackground();
      return;
    }
  }

  private Pending<O, R> oldestWaitingOnAThread() {
    for (Iterator<Pending<O, R>> it = queued.iterator(); it.hasNext(); ) {
      Pending<O, R> candidate = it.next();
      if (candidate.thread != null) {
        return candidate;
      }
    }
    return null;
  }

  private void send(List<Pending<O, R>> batch) {
    if (batch.isEmpty()) {
      return;
    }
    sending = Thread.currentThread();
    try {
      sendAndAnswer(batch);
    } finally {
      sending = null;
    }
  }

  private void sendAndAnswer(List<Pending<O, R>> batch) {
    List<O> operations = new ArrayList<>(batch.size());
    for (Pending<O, R> pending : batch) {
      operations.add(pending.operation);
    }
    List<R> answers;
    try {
      answers = sender.send(operations);
      if (answers.size() != batch.size()) {
        throw new IllegalStateException(
            "a batch of " + batch.size() + " operations got " + answers.size() + " answers");
      }
    } catch (Throwable failure) {
      // any throwable, a checked one thrown past the compiler too: one that escaped here would
      // leave the lane busy for good and its callers waiting
      for (Pending<O, R> pending : batch) {
        pending.fail(failure);
      }
      return;
    }
    for (int i = 0; i < batch.size(); i++) {
      batch.get(i).answer(answers.get(i));
    }
  }

  /** One operation and whoever waits for its answer. */
  private static final class Pending<O, R> {

    final O operation;

    /** The thread that waits for the answer, null when nobody waits on a thread. */
    final Thread thread;

    final CompletableFuture<R> stage = new CompletableFuture<>();

    /** Set when this caller is to send the next batch. */
    private volatile boolean appointed;

    /** Whether the waiting thread was interrupted while it waited; only that thread uses it. */
    boolean interrupted;

    Pending(O operation, Thread thread) {
      this.operation = operation;
      this.thread = thread;
    }

    void answer(R answer) {
      stage.complete(answer);
      wake();
    }

    void fail(Throwable failure) {
      stage.completeExceptionally(failure);
      wake();
    }

    void appoint() {
      appointed = true;
      wake();
    }

    private void wake() {
      if (thread != null) {
        LockSupport.unpark(thread);
      }
    }

    /**
     * Parks until answered (false) or appointed to send (true). An interrupt meanwhile is noted in
     * {@link #interrupted} and cleared: the caller sets it again once its answer is in, not before
     * it sends a batch.
     */
    boolean awaitAnswerOrTurn() {
      while (true) {
        if (stage.isDone()) {
          return false;
        }
        if (appointed) {
          return true;
        }
        LockSupport.park(this);
        if (Thread.interrupted()) {
          interrupted = true;
        }
      }
    }

    R answer() {
      try {
        return stage.getNow(null);
      } catch (java.util.concurrent.CompletionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException runtime) {
          throw runtime;
        }
        if (cause instanceof Error error) {
          throw error;
        }
        throw e;
      }
    }
  }
}
