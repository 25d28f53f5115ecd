package dev.bulwark.core.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A sender whose store call answers before it returns, and records every batch it is given (its
 * operations, the thread that sent it, whether that thread was interrupted then) and answers each
 * operation with {@code answer}. It can hold the next batch until the test lets it go, so a test
 * decides what queues behind a batch in flight. Overlapping batches, which a batch queue must never
 * send, are counted.
 */
final class RecordingSender<O, R> implements BatchQueue.Sender<O, R> {

  /** One batch as it was sent. */
  record Sent<O>(List<O> operations, Thread thread, boolean interrupted) {}

  private final Function<O, R> answer;
  private final List<Sent<O>> sent = new ArrayList<>(); // guarded by this
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger overlaps = new AtomicInteger();
  private volatile Hold hold;
  private volatile Function<List<O>, RuntimeException> failure = batch -> null;

  RecordingSender(Function<O, R> answer) {
    this.answer = answer;
  }

  @Override
  public CompletionStage<List<R>> send(List<O> operations) {
    return CompletableFuture.completedFuture(sendNow(operations));
  }

  private List<R> sendNow(List<O> operations) {
    if (inFlight.incrementAndGet() > 1) {
      overlaps.incrementAndGet();
    }
    try {
      synchronized (this) {
        sent.add(
            new Sent<>(
                List.copyOf(operations),
                Thread.currentThread(),
                Thread.currentThread().isInterrupted()));
      }
      Hold current = hold;
      if (current != null) {
        hold = null;
        current.entered.countDown();
        current.awaitRelease();
      }
      RuntimeException failing = failure.apply(operations);
      if (failing != null) {
        throw failing;
      }
      List<R> answers = new ArrayList<>(operations.size());
      for (O operation : operations) {
        answers.add(answer.apply(operation));
      }
      return answers;
    } finally {
      inFlight.decrementAndGet();
    }
  }

  /** Holds the next batch in the sender until {@link Hold#release} is called. */
  Hold holdNext() {
    Hold next = new Hold();
    hold = next;
    return next;
  }

  /** Fails every batch for which {@code failing} gives an exception. */
  void failWhen(Function<List<O>, RuntimeException> failing) {
    this.failure = failing;
  }

  synchronized List<Sent<O>> sent() {
    return List.copyOf(sent);
  }

  /** The operations of every batch sent, one batch after the other. */
  synchronized List<O> operationsInOrder() {
    List<O> all = new ArrayList<>();
    for (Sent<O> batch : sent) {
      all.addAll(batch.operations());
    }
    return all;
  }

  int overlaps() {
    return overlaps.get();
  }

  /** A batch held in the sender. */
  static final class Hold {
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    /** Waits until the held batch is in the sender. */
    void awaitEntered() throws InterruptedException {
      if (!entered.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("no batch reached the sender within 10 s");
      }
    }

    void release() {
      released.countDown();
    }

    private void awaitRelease() {
      boolean interrupted = false;
      try {
        while (true) {
          try {
            if (!released.await(10, TimeUnit.SECONDS)) {
              throw new AssertionError("the held batch was not let go within 10 s");
            }
            return;
          } catch (InterruptedException e) {
            interrupted = true; // the test interrupts callers, never the sender's wait
          }
        }
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
