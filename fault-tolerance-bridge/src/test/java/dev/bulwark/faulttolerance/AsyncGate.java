package dev.bulwark.faulttolerance;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * {@link Gate} for asynchronous methods: a call that enters returns at once a stage that completes
 * when the test opens the gate, and counts as inside until then. No stage stays open longer than
 * {@link Gate#MAX_HOLD}, so a broken test cannot hang the build.
 */
final class AsyncGate {

  private final CompletableFuture<Void> open = new CompletableFuture<>();
  private int inside;
  private int maxInside;

  static AsyncGate opened() {
    AsyncGate gate = new AsyncGate();
    gate.open();
    return gate;
  }

  CompletionStage<String> enter() {
    synchronized (this) {
      inside++;
      maxInside = Math.max(maxInside, inside);
      notifyAll();
    }
    return open.thenApply(opened -> "ran")
        .orTimeout(Gate.MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete(
            (result, failure) -> {
              synchronized (this) {
                inside--;
              }
            });
  }

  void open() {
    open.complete(null);
  }

  /** Waits until {@code count} calls are inside; fails after {@code timeout}. */
  synchronized void awaitInside(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (inside < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException(
            "only " + inside + " of " + count + " calls came inside within " + timeout);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  synchronized int maxInside() {
    return maxInside;
  }
}
