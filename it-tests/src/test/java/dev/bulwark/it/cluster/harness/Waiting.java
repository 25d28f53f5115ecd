package dev.bulwark.it.cluster.harness;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded waits of the tests' own: every wait has a deadline and says what it waited for. */
public final class Waiting {

  private Waiting() {}

  /** Polls {@code condition} every 10 ms; fails the test after {@code timeout}. */
  public static void until(BooleanSupplier condition, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting until " + what);
      }
      StartBarrier.sleepMillis(10);
    }
  }

  /** Sleeps until the {@link System#nanoTime()} instant {@code nanoTime}. */
  public static void untilInstant(long nanoTime) {
    try {
      StartBarrier.sleepUntil(nanoTime);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
