package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.it.support.Deployments;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An asynchronous method under SmallRye Fault Tolerance's {@code @Asynchronous} and
 * {@code @Fallback}: Bulwark holds the permit until the method's stage completes, and a rejection
 * that fails the stage reaches FT's fallback like a thrown one.
 */
@ExtendWith(ArquillianExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AsyncFaultToleranceTest {

  @ApplicationScoped
  public static class Renderer {

    final CountDownLatch entered = new CountDownLatch(1);
    final AtomicInteger fallbacks = new AtomicInteger();

    @Asynchronous
    @DistributedBulkhead(name = "async-ft", value = 1)
    @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
    public CompletionStage<String> render(CompletableFuture<String> work) {
      entered.countDown();
      return work;
    }

    public CompletionStage<String> busy(CompletableFuture<String> work) {
      fallbacks.incrementAndGet();
      return CompletableFuture.completedFuture("fallback");
    }

    public boolean awaitEntered() throws InterruptedException {
      return entered.await(10, TimeUnit.SECONDS);
    }

    public int fallbacks() {
      return fallbacks.get();
    }
  }

  @Deployment
  static JavaArchive deployment() {
    return Deployments.bulwark("asyncfaulttolerance", Renderer.class);
  }

  @Inject Renderer renderer;

  @Test
  void thePermitIsHeldUntilTheStageCompletesAndARejectionReachesTheFallback() throws Exception {
    CompletableFuture<String> slow = new CompletableFuture<>();
    CompletionStage<String> first = renderer.render(slow);
    assertThat(renderer.awaitEntered()).as("the first call runs").isTrue();

    CompletionStage<String> second = renderer.render(CompletableFuture.completedFuture("ran"));
    assertThat(second.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("fallback");
    assertThat(renderer.fallbacks()).isEqualTo(1);

    slow.complete("ran");
    assertThat(first.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("ran");
    CompletionStage<String> third = renderer.render(CompletableFuture.completedFuture("again"));
    assertThat(third.toCompletableFuture().get(10, TimeUnit.SECONDS))
        .as("released when the first call's stage completed")
        .isEqualTo("again");
  }
}
