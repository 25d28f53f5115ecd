package dev.bulwark.core.engine;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Outcome;
import java.time.Duration;

/**
 * Waits out one queued request: the store's hand-over normally wakes it; when the store's wake-ups
 * can be lost, it polls once per check interval; at the deadline it withdraws, and a withdrawal
 * that races a hand-over keeps the grant.
 */
final class QueuedRequest {

  /** The store operations on one queued request. */
  interface Queue {
    Grant poll();

    Grant cancel();

    void release();
  }

  private QueuedRequest() {}

  /**
   * @return the final grant: GRANTED (with its token) or REJECTED
   * @throws InterruptedException after withdrawing the request (and releasing a racing grant)
   */
  static Grant await(GrantSignal signal, long deadline, Duration checkInterval, Queue queue)
      throws InterruptedException {
    long check = checkInterval.isZero() ? Long.MAX_VALUE : checkInterval.toNanos();
    try {
      while (true) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return signal.isGranted() ? Grant.granted(signal.signalledToken()) : queue.cancel();
        }
        if (signal.awaitSignal(Math.min(remaining, check))) {
          return Grant.granted(signal.signalledToken());
        }
        if (deadline - System.nanoTime() > 0) {
          Grant polled = queue.poll();
          if (polled.outcome() != Outcome.QUEUED) {
            return polled;
          }
        }
      }
    } catch (InterruptedException e) {
      if (signal.isGranted() || queue.cancel().isGranted()) {
        queue.release();
      }
      throw e;
    }
  }
}
