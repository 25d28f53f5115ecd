package dev.bulwark.faulttolerance;

import dev.bulwark.DistributedBulkhead;
import io.smallrye.faulttolerance.api.BeforeRetry;
import io.smallrye.faulttolerance.api.BeforeRetryHandler;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.ExecutionContext;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * The same methods twice: once under Bulwark's {@code @DistributedBulkhead} (local store), once
 * under MicroProfile FT's {@code @Bulkhead} as SmallRye FT enforces it; the other FT annotations
 * are the same on both.
 */
final class ParityTargets {

  private ParityTargets() {}

  /** What the tests call; each method has a bulkhead of its own. */
  interface Target {
    String hold(Gate gate);

    String withFallback(Gate gate);

    String retried(Gate gate, Retries retries);

    String breaker(Gate gate);
  }

  /** Counts the retries FT makes, and may act before one. */
  static final class Retries {
    private final AtomicInteger count = new AtomicInteger();
    private final Runnable beforeFirst;

    Retries(Runnable beforeFirst) {
      this.beforeFirst = beforeFirst;
    }

    Retries() {
      this(() -> {});
    }

    int count() {
      return count.get();
    }

    void retrying() {
      if (count.incrementAndGet() == 1) {
        beforeFirst.run();
      }
    }
  }

  /** Called by SmallRye FT before each retry, with the call's arguments. */
  public static class CountRetry implements BeforeRetryHandler {
    @Override
    public void handle(ExecutionContext context) {
      ((Retries) context.getParameters()[1]).retrying();
    }
  }

  @ApplicationScoped
  public static class BulwarkTarget implements Target {

    @Override
    @DistributedBulkhead(2)
    public String hold(Gate gate) {
      gate.pass();
      return "ran";
    }

    @Override
    @DistributedBulkhead(1)
    @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
    public String withFallback(Gate gate) {
      gate.pass();
      return "ran";
    }

    public String busy(Gate gate) {
      return "fallback";
    }

    @Override
    @DistributedBulkhead(1)
    @Retry(maxRetries = 2, delay = 0, jitter = 0, retryOn = BulkheadException.class)
    @BeforeRetry(CountRetry.class)
    public String retried(Gate gate, Retries retries) {
      gate.pass();
      return "ran";
    }

    @Override
    @DistributedBulkhead(1)
    @CircuitBreaker(
        requestVolumeThreshold = 2,
        failureRatio = 1.0,
        delay = 1,
        delayUnit = ChronoUnit.MINUTES)
    public String breaker(Gate gate) {
      gate.pass();
      return "ran";
    }
  }

  @ApplicationScoped
  public static class SmallRyeTarget implements Target {

    @Override
    @org.eclipse.microprofile.faulttolerance.Bulkhead(2)
    public String hold(Gate gate) {
      gate.pass();
      return "ran";
    }

    @Override
    @org.eclipse.microprofile.faulttolerance.Bulkhead(1)
    @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
    public String withFallback(Gate gate) {
      gate.pass();
      return "ran";
    }

    public String busy(Gate gate) {
      return "fallback";
    }

    @Override
    @org.eclipse.microprofile.faulttolerance.Bulkhead(1)
    @Retry(maxRetries = 2, delay = 0, jitter = 0, retryOn = BulkheadException.class)
    @BeforeRetry(CountRetry.class)
    public String retried(Gate gate, Retries retries) {
      gate.pass();
      return "ran";
    }

    @Override
    @org.eclipse.microprofile.faulttolerance.Bulkhead(1)
    @CircuitBreaker(
        requestVolumeThreshold = 2,
        failureRatio = 1.0,
        delay = 1,
        delayUnit = ChronoUnit.MINUTES)
    public String breaker(Gate gate) {
      gate.pass();
      return "ran";
    }
  }
}
