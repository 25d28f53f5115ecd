package dev.bulwark.it.payara.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a guarded method blocks until the test opens it, recording how many calls are inside at
 * once: the record the tests assert on. A call never waits longer than {@link #MAX_HOLD_SECONDS},
 * so a test that fails half-way leaves no request thread stuck in the server.
 */
public final class Gate {

  static final long MAX_HOLD_SECONDS = 60;

  private final CountDownLatch open = new CountDownLatch(1);
  private final AtomicInteger inside = new AtomicInteger();
  private final AtomicInteger maxInside = new AtomicInteger();
  private final AtomicInteger entered = new AtomicInteger();

  /** Enters, waits until the gate is opened, leaves; returns what the caller reports. */
  public String pass(int id) {
    int now = inside.incrementAndGet();
    maxInside.accumulateAndGet(now, Math::max);
    entered.incrementAndGet();
    try {
      if (!open.await(MAX_HOLD_SECONDS, TimeUnit.SECONDS)) {
        return "timed out " + id;
      }
      return "ran " + id;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted " + id;
    } finally {
      inside.decrementAndGet();
    }
  }

  public void open() {
    open.countDown();
  }

  /** {@code entered=E,inside=I,max=M}. */
  public String record() {
    return "entered=" + entered.get() + ",inside=" + inside.get() + ",max=" + maxInside.get();
  }
}
