package dev.bulwark.faulttolerance;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.faulttolerance.ParityTargets.CountRetry;
import dev.bulwark.faulttolerance.ParityTargets.Retries;
import io.smallrye.faulttolerance.api.BeforeRetry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * The {@link ParityTargets} scenarios for {@code @Asynchronous} methods returning {@code
 * CompletionStage}: under Bulwark's {@code @DistributedBulkhead} (local store, no waiting time) and
 * under MicroProfile FT's {@code @Bulkhead} as SmallRye FT enforces it. An asynchronous
 * {@code @Bulkhead} always has a waiting queue (at least one); Bulwark's bulkhead has none, it
 * rejects or, with a waiting time, lets callers wait.
 */
final class AsyncParityTargets {

  private AsyncParityTargets() {}

  interface AsyncTarget {
    /** How many calls wait in the bulkhead's queue once it is full: SmallRye's, not Bulwark's. */
    int queue();

    CompletionStage<String> hold(AsyncGate gate);

    CompletionStage<String> withFallback(AsyncGate gate);

    CompletionStage<String> retried(AsyncGate gate, Retries retries);
  }

  @ApplicationScoped
  public static class BulwarkAsync implements AsyncTarget {

    @Override
    public int queue() {
      return 0;
    }

    @Override
    @Asynchronous
    @DistributedBulkhead(2)
    public CompletionStage<String> hold(AsyncGate gate) {
      return gate.enter();
    }

    @Override
    @Asynchronous
    @DistributedBulkhead(1)
    @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
    public CompletionStage<String> withFallback(AsyncGate gate) {
      return gate.enter();
    }

    public CompletionStage<String> busy(AsyncGate gate) {
      return CompletableFuture.completedFuture("fallback");
    }

    @Override
    @Asynchronous
    @DistributedBulkhead(1)
    @Retry(maxRetries = 2, delay = 0, jitter = 0, retryOn = BulkheadException.class)
    @BeforeRetry(CountRetry.class)
    public CompletionStage<String> retried(AsyncGate gate, Retries retries) {
      return gate.enter();
    }
  }

  @ApplicationScoped
  public static class SmallRyeAsync implements AsyncTarget {

    @Override
    public int queue() {
      return 1;
    }

    @Override
    @Asynchronous
    @Bulkhead(value = 2, waitingTaskQueue = 1)
    public CompletionStage<String> hold(AsyncGate gate) {
      return gate.enter();
    }

    @Override
    @Asynchronous
    @Bulkhead(value = 1, waitingTaskQueue = 1)
    @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
    public CompletionStage<String> withFallback(AsyncGate gate) {
      return gate.enter();
    }

    public CompletionStage<String> busy(AsyncGate gate) {
      return CompletableFuture.completedFuture("fallback");
    }

    @Override
    @Asynchronous
    @Bulkhead(value = 1, waitingTaskQueue = 1)
    @Retry(maxRetries = 2, delay = 0, jitter = 0, retryOn = BulkheadException.class)
    @BeforeRetry(CountRetry.class)
    public CompletionStage<String> retried(AsyncGate gate, Retries retries) {
      return gate.enter();
    }
  }
}
