package dev.bulwark.benchmarks;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/** Fills each probe bulkhead of one permit and checks that a second call is rejected. */
final class InterceptionCheck {

  /** One call of a probe method. */
  @FunctionalInterface
  interface Hold {
    void call(CountDownLatch entered, CountDownLatch release) throws InterruptedException;
  }

  private InterceptionCheck() {}

  static void run(InterceptionProbe probe) {
    expectRejection("SmallRye Fault Tolerance @Bulkhead", probe::faultTolerance);
    expectRejection("Bulwark @DistributedBulkhead", probe::bulwark);
  }

  private static void expectRejection(String what, Hold hold) {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder =
        new Thread(
            () -> {
              try {
                hold.call(entered, release);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "interception-check");
    holder.start();
    try {
      if (!entered.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException(what + ": the first call never started");
      }
      try {
        hold.call(new CountDownLatch(1), new CountDownLatch(0));
        throw new IllegalStateException(
            what + " is not applied: a second call ran beside the first in a bulkhead of 1");
      } catch (BulkheadException expected) {
        // the interceptor is there
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + ": interrupted", e);
    } finally {
      release.countDown();
    }
    try {
      holder.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
