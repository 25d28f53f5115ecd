package dev.bulwark.quarkus.devservicesjpa;

import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A guarded method whose calls the test holds open. */
@ApplicationScoped
public class Reports {

  @DistributedBulkhead(name = "reports", value = 2)
  public void generate(CountDownLatch entered, CountDownLatch release) {
    entered.countDown();
    try {
      release.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
