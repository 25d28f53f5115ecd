package dev.bulwark.quarkus.rest;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Where a guarded call stays until the test opens the gate, so that the test knows a permit is held
 * rather than guessing it with timing. A call never waits longer than a minute.
 */
@ApplicationScoped
public class Gate {

  private final Semaphore entered = new Semaphore(0);
  private volatile CountDownLatch open = new CountDownLatch(1);

  void pass() {
    entered.release();
    try {
      open.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits, bounded, until one more call is inside. */
  public boolean awaitEntered() throws InterruptedException {
    return entered.tryAcquire(20, TimeUnit.SECONDS);
  }

  /** Lets every call inside go, and closes the gate for the next ones. */
  public void open() {
    CountDownLatch was = open;
    open = new CountDownLatch(1);
    was.countDown();
  }
}
