package dev.bulwark.quarkus.deployment.devui;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Guarded methods of the dev-mode application whose calls the test holds open with a latch. */
@ApplicationScoped
public class HeldCalls {

  static final CountDownLatch release = new CountDownLatch(1);

  @DistributedBulkhead(name = "browser-bulkhead", value = 3)
  public void bulkhead(CountDownLatch entered) {
    entered.countDown();
    await();
  }

  /** One permit: a second call waits in the queue while the first is held. */
  @DistributedBulkhead(
      name = "browser-queue",
      value = 1,
      waitingTime = 60,
      waitingTimeUnit = ChronoUnit.SECONDS)
  public void queue(CountDownLatch entered) {
    entered.countDown();
    await();
  }

  @DistributedLock(name = "browser-lock")
  public void lock(@LockKey String account, CountDownLatch entered) {
    entered.countDown();
    await();
  }

  @DistributedRateLimit(name = "browser-rate", value = 50)
  public void rate() {}

  private static void await() {
    try {
      release.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
