package dev.bulwark.ftquarkus;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds the callers that pass it until the test opens it. No caller is held longer than {@link
 * #MAX_HOLD}, so a broken test cannot hang the build.
 */
public final class Gate {

  public static final Duration MAX_HOLD = Duration.ofSeconds(10);

  private final CountDownLatch open = new CountDownLatch(1);
  private int inside;

  /** A gate that is open from the start: its callers pass straight through. */
  public static Gate opened() {
    Gate gate = new Gate();
    gate.open();
    return gate;
  }

  public void pass() {
    synchronized (this) {
      inside++;
      notifyAll();
    }
    try {
      if (!open.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("a caller was held longer than " + MAX_HOLD);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      synchronized (this) {
        inside--;
      }
    }
  }

  public void open() {
    open.countDown();
  }

  /** Waits until {@code count} callers are inside; fails after {@code timeout}. */
  public synchronized void awaitInside(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (inside < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException(
            "only " + inside + " of " + count + " callers came inside within " + timeout);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }
}
