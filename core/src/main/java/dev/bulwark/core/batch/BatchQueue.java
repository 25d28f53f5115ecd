package dev.bulwark.core.batch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The store operations of one limit in this JVM, sent in batches by the store's sending side, never
 * by a caller: a caller queues its operation and waits only for its own answer (parked, or through
 * a stage). Whenever fewer than {@code maxInFlight} batches are in flight, the sending side takes
 * what is queued (at most {@code maxSize}, in arrival order) and sends it as the next batch, so an
 * operation that arrives while a batch is out goes with the next one instead of waiting for that
 * batch's answer. One batch queue's batches are handed to its {@link Sender} one after the other,
 * in the order taken, so a sender that writes them to one connection has the store apply them in
 * that order.
 *
 * <p>Where things run: {@link Sender#send} on the {@code sending} executor, one task per batch, so
 * the batch queues of many limits take turns there and a busy limit cannot hold a quiet one up for
 * more than a batch each; the stages {@link #submit} and {@link #post} return complete on the
 * {@code answering} executor, so what depends on them never runs on the sending side. A caller
 * parked in {@link #call} is woken by the answer itself.
 *
 * @param <O> an operation
 * @param <R> its answer
 */
public final class BatchQueue<O, R> {

  /** Sends one batch; the stage answers each operation, in order. */
  @FunctionalInterface
  public interface Sender<O, R> {

    /**
     * Sends {@code operations} as one store call. Runs on the batch queue's sending executor; it
     * may take a round trip there (a store without pipelining) or return at once and answer later.
     *
     * @return one answer per operation, in order; or the failure of the whole batch
     */
    CompletionStage<List<R>> send(List<O> operations);

    /** A sender whose store call answers before it returns: one batch in flight at a time. */
    static <O, R> Sender<O, R> blocking(Function<List<O>, List<R>> storeCall) {
      return operations -> {
        try {
          return CompletableFuture.completedFuture(storeCall.apply(operations));
        } catch (Throwable failure) {
          // any throwable, a checked one thrown past the compiler too: it fails the batch only
          return CompletableFuture.failedFuture(failure);
        }
      };
    }
  }

  /** Set on a thread while it sends a batch or delivers answers; a call there could never end. */
  private static final ThreadLocal<Boolean> SENDING = new ThreadLocal<>();

  private final Sender<O, R> sender;
  private final int maxSize;
  private final int maxInFlight;
  private final Executor sending;
  private final Executor answering;

  // a lock rather than a monitor: a virtual thread waiting in it does not pin its carrier
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();
  private final ArrayDeque<Pending<O, R>> queued = new ArrayDeque<>();

  /** Batches sent and not yet answered; guarded by lock. */
  private int inFlight;

  /** Answered batches whose stages the answering executor has yet to complete; guarded by lock. */
  private int undelivered;

  /**
   * Whether a task that takes the next batch is handed to the sending executor; guarded by lock.
   */
  private boolean scheduled;

  /** When the batch queue last had nothing queued or in flight (nanoTime); guarded by lock. */
  private long idleSince = System.nanoTime();

  /**
   * @param maxSize the most operations one batch carries
   * @param maxInFlight the most batches sent and not yet answered
   * @param sending where batches are sent from: threads that never wait for a batch queue's answer
   * @param answering where the stages of {@link #submit} and {@link #post} complete
   */
  public BatchQueue(
      Sender<O, R> sender, int maxSize, int maxInFlight, Executor sending, Executor answering) {
    if (maxSize < 1) {
      throw new IllegalArgumentException("maxSize must be at least 1, was " + maxSize);
    }
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1, was " + maxInFlight);
    }
    this.sender = sender;
    this.maxSize = maxSize;
    this.maxInFlight = maxInFlight;
    this.sending = sending;
    this.answering = answering;
  }

  /**
   * Queues {@code operation} and waits for its answer, uninterruptibly, as a single store call
   * does: an interrupt that comes meanwhile is kept for the caller, and does not cut the batch
   * short for the other callers in it.
   *
   * @throws RuntimeException the failure of the batch that carried it
   * @throws IllegalStateException when made on the sending side, which this call would wait for
   */
  public R call(O operation) {
    if (SENDING.get() != null) {
      throw new IllegalStateException(
          "BatchQueue.call was made on a thread that sends batches or hands out their answers:"
              + " it would wait for the thread it holds");
    }
    Pending<O, R> mine = new Pending<>(operation, Thread.currentThread());
    enqueue(mine);
    mine.awaitAnswer();
    return mine.answer();
  }

  /** Queues {@code operation}; the stage completes with its answer on the answering executor. */
  public CompletableFuture<R> submit(O operation) {
    Pending<O, R> mine = new Pending<>(operation, null);
    enqueue(mine);
    return mine.stage;
  }

  /**
   * Queues {@code operation} for a caller that does not wait for it (a release it need not see
   * applied); the same as {@link #submit}, named for what the caller means.
   */
  public CompletableFuture<R> post(O operation) {
    return submit(operation);
  }

  private void enqueue(Pending<O, R> pending) {
    boolean schedule;
    lock.lock();
    try {
      queued.add(pending);
      schedule = !scheduled && inFlight < maxInFlight;
      if (schedule) {
        scheduled = true;
      }
    } finally {
      lock.unlock();
    }
    if (schedule) {
      schedule();
    }
  }

  /**
   * Waits until nothing is queued or in flight, at most {@code timeout}: what a closing engine owes
   * the store (releases posted) is sent first.
   *
   * @return whether the batch queue is idle
   */
  public boolean flush(long timeout, TimeUnit unit) {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    lock.lock();
    try {
      while (!isIdle()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        idle.awaitNanos(left);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return isIdle();
    } finally {
      lock.unlock();
    }
  }

  /** How many operations wait for a batch. */
  public int queuedCount() {
    lock.lock();
    try {
      return queued.size();
    } finally {
      lock.unlock();
    }
  }

  /** How many batches are sent and not yet answered. */
  public int inFlightCount() {
    lock.lock();
    try {
      return inFlight;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether nothing has been queued or in flight since {@code nanoTime - idleNanos} or earlier: a
   * batch queue its owner may drop.
   */
  boolean idleFor(long idleNanos, long nanoTime) {
    lock.lock();
    try {
      return isIdle() && nanoTime - idleSince >= idleNanos;
    } finally {
      lock.unlock();
    }
  }

  private boolean isIdle() {
    return queued.isEmpty() && inFlight == 0 && !scheduled && undelivered == 0;
  }

  private void schedule() {
    try {
      sending.execute(this::sendNext);
    } catch (RejectedExecutionException closed) {
      sendNext(); // the engine closes: send what it owes from here
    }
  }

  /**
   * Takes the next batch and sends it; the batch queue stays scheduled until the sender returned.
   */
  private void sendNext() {
    List<Pending<O, R>> batch = new ArrayList<>(Math.min(maxSize, 16));
    lock.lock();
    try {
      for (int i = 0; i < maxSize && !queued.isEmpty(); i++) {
        batch.add(queued.poll());
      }
      if (!batch.isEmpty()) {
        inFlight++;
      }
    } finally {
      lock.unlock();
    }
    if (!batch.isEmpty()) {
      send(batch);
    }
    boolean again;
    lock.lock();
    try {
      again = !queued.isEmpty() && inFlight < maxInFlight;
      scheduled = again;
      wakeFlushesIfIdle();
    } finally {
      lock.unlock();
    }
    if (again) {
      schedule(); // behind the other batch queues' turns, not in a loop here
    }
  }

  private void send(List<Pending<O, R>> batch) {
    List<O> operations = new ArrayList<>(batch.size());
    for (Pending<O, R> pending : batch) {
      operations.add(pending.operation);
    }
    CompletionStage<List<R>> answered;
    SENDING.set(Boolean.TRUE);
    try {
      answered = sender.send(operations);
    } catch (Throwable failure) {
      answered = CompletableFuture.failedFuture(failure);
    } finally {
      SENDING.remove();
    }
    answered.whenComplete((answers, failure) -> answer(batch, answers, failure));
  }

  /**
   * Hands out one batch's answers, then lets the next batch go when the batch queue waited for
   * this.
   */
  private void answer(List<Pending<O, R>> batch, List<R> answers, Throwable failure) {
    if (failure == null && (answers == null || answers.size() != batch.size())) {
      failure =
          new IllegalStateException(
              "a batch of "
                  + batch.size()
                  + " operations got "
                  + (answers == null ? "no" : answers.size())
                  + " answers");
    }
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    boolean hasStages = false;
    for (Pending<O, R> pending : batch) {
      hasStages |= pending.thread == null;
    }
    boolean schedule;
    lock.lock();
    try {
      inFlight--;
      if (hasStages) {
        undelivered++; // a flush returns once the answers are out, not only in
      }
      schedule = !scheduled && !queued.isEmpty() && inFlight < maxInFlight;
      if (schedule) {
        scheduled = true;
      }
      wakeFlushesIfIdle();
    } finally {
      lock.unlock();
    }
    if (schedule) {
      schedule();
    }
    List<Runnable> stages = hasStages ? new ArrayList<>() : null;
    SENDING.set(Boolean.TRUE);
    try {
      for (int i = 0; i < batch.size(); i++) {
        Pending<O, R> pending = batch.get(i);
        R answer = cause == null ? answers.get(i) : null;
        if (pending.thread != null) {
          pending.deliver(answer, cause);
        } else {
          stages.add(() -> pending.deliver(answer, cause));
        }
      }
    } finally {
      SENDING.remove();
    }
    if (stages != null) {
      completeOnAnswering(stages);
    }
  }

  private void completeOnAnswering(List<Runnable> stages) {
    Runnable all =
        () -> {
          try {
            stages.forEach(Runnable::run);
          } finally {
            lock.lock();
            try {
              undelivered--;
              wakeFlushesIfIdle();
            } finally {
              lock.unlock();
            }
          }
        };
    try {
      answering.execute(all);
    } catch (RejectedExecutionException closed) {
      all.run();
    }
  }

  private void wakeFlushesIfIdle() {
    if (isIdle()) {
      idleSince = System.nanoTime();
      idle.signalAll();
    }
  }

  /** One operation and whoever waits for its answer. */
  private static final class Pending<O, R> {

    final O operation;

    /** The thread parked for the answer, null when the answer goes to the stage only. */
    final Thread thread;

    final CompletableFuture<R> stage = new CompletableFuture<>();

    Pending(O operation, Thread thread) {
      this.operation = operation;
      this.thread = thread;
    }

    void deliver(R answer, Throwable failure) {
      if (failure == null) {
        stage.complete(answer);
      } else {
        stage.completeExceptionally(failure);
      }
      if (thread != null) {
        LockSupport.unpark(thread);
      }
    }

    /** Parks until answered; an interrupt meanwhile is kept and set again once answered. */
    void awaitAnswer() {
      boolean interrupted = false;
      while (!stage.isDone()) {
        LockSupport.park(this);
        if (Thread.interrupted()) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    R answer() {
      try {
        return stage.getNow(null);
      } catch (CompletionException e) {
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
