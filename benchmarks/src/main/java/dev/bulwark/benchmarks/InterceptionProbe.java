package dev.bulwark.benchmarks;

import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CountDownLatch;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * Proves, before anything is measured, that both interceptors are really applied: a limit that is
 * silently not enforced would make its variant look as cheap as the baseline.
 */
@ApplicationScoped
public class InterceptionProbe {

  @Bulkhead(1)
  public void faultTolerance(CountDownLatch entered, CountDownLatch release)
      throws InterruptedException {
    hold(entered, release);
  }

  @DistributedBulkhead(value = 1)
  public void bulwark(CountDownLatch entered, CountDownLatch release) throws InterruptedException {
    hold(entered, release);
  }

  private static void hold(CountDownLatch entered, CountDownLatch release)
      throws InterruptedException {
    entered.countDown();
    release.await();
  }
}
