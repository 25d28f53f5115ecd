package dev.bulwark.faulttolerance;

import static dev.bulwark.faulttolerance.FaultToleranceOracle.method;
import static dev.bulwark.faulttolerance.FaultToleranceOracle.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.core.engine.BulwarkEngine;
import io.smallrye.faulttolerance.api.BeforeRetry;
import io.smallrye.faulttolerance.api.BeforeRetryHandler;
import io.smallrye.faulttolerance.api.RateLimit;
import io.smallrye.faulttolerance.api.RateLimitException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.ExecutionContext;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster-wide rejection reaches FT's {@code @Fallback} exactly as FT's own would: whatever
 * priority FT's interceptor was given, for a stage FT reads as a plain result, and as SmallRye's
 * {@code RateLimitException} for a mapped {@code @RateLimit}. Another JVM (an engine of its own on
 * the same Redis) holds the cluster's permits, so this JVM's FT admits every call and only the
 * cluster-wide limit can reject it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RejectionParityTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  @ApplicationScoped
  public static class Reports {
    @Bulkhead(1)
    @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
    public String run() {
      return "ran";
    }

    /** No {@code @Asynchronous}: SmallRye's compatible mode reads the stage as a plain result. */
    @Bulkhead(1)
    @Retry(maxRetries = 2, delay = 0, jitter = 0, retryOn = BulkheadException.class)
    @BeforeRetry(ReleaseElsewhere.class)
    public CompletionStage<String> later(AsyncGate gate) {
      return gate.enter();
    }

    @Bulkhead(1)
    public CompletionStage<String> laterWithoutRetry(AsyncGate gate) {
      return gate.enter();
    }

    /** Kept per JVM: FT's own bulkhead counts the call while the method runs, then lets go. */
    @Bulkhead(1)
    public CompletionStage<String> laterPerJvm(Gate gate) {
      gate.pass();
      return CompletableFuture.completedFuture("ran");
    }

    @RateLimit(value = 1, window = 1, windowUnit = ChronoUnit.MINUTES)
    @Fallback(fallbackMethod = "limited", applyOn = RateLimitException.class)
    public String quote() {
      return "quoted";
    }

    @RateLimit(value = 1, window = 1, windowUnit = ChronoUnit.MINUTES)
    public String bareQuote() {
      return "quoted";
    }

    public String busy() {
      return "fallback";
    }

    public String limited() {
      return "limited";
    }
  }

  /** Before FT retries, the other JVM gives its permit back. */
  public static class ReleaseElsewhere implements BeforeRetryHandler {
    static final AtomicReference<Permit> HELD = new AtomicReference<>();
    static final AtomicReference<BulwarkEngine> HOLDER = new AtomicReference<>();
    static final AtomicInteger RETRIES = new AtomicInteger();

    @Override
    public void handle(ExecutionContext context) {
      RETRIES.incrementAndGet();
      Permit permit = HELD.getAndSet(null);
      if (permit != null) {
        permit.close();
        // the release is posted by the other JVM: let it reach Redis before FT retries here
        HOLDER.get().flush(Duration.ofSeconds(10));
      }
    }
  }

  private static final String RUN = name(Reports.class, method(Reports.class, "run"));
  private static final String LATER =
      name(Reports.class, method(Reports.class, "later", AsyncGate.class));
  private static final String LATER_WITHOUT_RETRY =
      name(Reports.class, method(Reports.class, "laterWithoutRetry", AsyncGate.class));
  private static final String QUOTE = name(Reports.class, method(Reports.class, "quote"));
  private static final String BARE_QUOTE = name(Reports.class, method(Reports.class, "bareQuote"));

  /**
   * FT's own bulkhead rejects such a method by throwing, and its {@code @Retry} only sees what is
   * thrown: so is the cluster's rejection, and FT retries it.
   */
  @Test
  void aStageFaultToleranceReadsAsAResultHasItsRejectionThrownAsFaultTolerancesOwn()
      throws Exception {
    try (Cluster cluster =
        new Cluster(
            Map.of(Reports.class.getName() + "/laterPerJvm/Bulkhead/distributed", "false"))) {
      Reports reports = cluster.container.select(Reports.class).get();
      Gate perJvm = new Gate();
      CompletableFuture<CompletionStage<String>> inside =
          CompletableFuture.supplyAsync(() -> reports.laterPerJvm(perJvm));
      perJvm.awaitInside(1, WAIT);
      assertThatThrownBy(() -> reports.laterPerJvm(Gate.opened()))
          .isInstanceOf(BulkheadException.class);
      perJvm.open();
      assertThat(inside).succeedsWithin(WAIT);

      ReleaseElsewhere.RETRIES.set(0);
      ReleaseElsewhere.HOLDER.set(cluster.otherJvm);
      ReleaseElsewhere.HELD.set(cluster.otherJvm.programmatic().bulkhead(LATER).acquire());
      assertThat(reports.later(AsyncGate.opened()).toCompletableFuture())
          .succeedsWithin(WAIT)
          .isEqualTo("ran");
      assertThat(ReleaseElsewhere.RETRIES).hasValue(1);

      // admitted: the permit is held until the stage completes, as for any stage
      AsyncGate gate = new AsyncGate();
      CompletableFuture<String> held = reports.later(gate).toCompletableFuture();
      gate.awaitInside(1, WAIT);
      assertThat(cluster.otherJvm.programmatic().bulkhead(LATER).tryAcquire()).isEmpty();
      gate.open();
      assertThat(held).succeedsWithin(WAIT).isEqualTo("ran");
      try (Permit elsewhere =
          cluster.otherJvm.programmatic().bulkhead(LATER_WITHOUT_RETRY).acquire()) {
        assertThatThrownBy(() -> reports.laterWithoutRetry(AsyncGate.opened()))
            .isInstanceOf(BulkheadFullException.class);
      }
    }
  }

  @Test
  void aMappedRateLimitRejectsWithSmallRyesRateLimitException() throws Exception {
    try (Cluster cluster = new Cluster(Map.of())) {
      Reports reports = cluster.container.select(Reports.class).get();
      assertThat(cluster.otherJvm.programmatic().rateLimiter(QUOTE).tryAcquire()).isTrue();
      assertThat(cluster.otherJvm.programmatic().rateLimiter(BARE_QUOTE).tryAcquire()).isTrue();

      assertThat(reports.quote()).isEqualTo("limited");
      assertThatThrownBy(reports::bareQuote)
          .isInstanceOf(RateLimitException.class)
          .hasCauseInstanceOf(RateLimitExceededException.class)
          .hasMessageContaining(BARE_QUOTE)
          .satisfies(e -> assertThat(((RateLimitException) e).getRetryAfterMillis()).isPositive());
    }
  }

  @Test
  void faultTolerancesFallbackSeesTheRejectionWhateverPriorityFaultToleranceWasGiven()
      throws Exception {
    try (Cluster cluster = new Cluster(Map.of("mp.fault.tolerance.interceptor.priority", "4200"))) {
      Reports reports = cluster.container.select(Reports.class).get();
      try (Permit elsewhere = cluster.otherJvm.programmatic().bulkhead(RUN).acquire()) {
        assertThat(reports.run()).isEqualTo("fallback");
      }
      // the other JVM's release is posted: let it reach Redis before this JVM asks again
      cluster.otherJvm.flush(Duration.ofSeconds(10));
      assertThat(reports.run()).isEqualTo("ran");
    }
  }

  /** This JVM's container, and another JVM's engine, on one Redis, every FT annotation mapped. */
  private static final class Cluster implements AutoCloseable {
    private final SharedRedis redis = new SharedRedis();
    private final Containers.Config config;
    private final WeldContainer container;
    private final BulwarkEngine otherJvm;

    Cluster(Map<String, String> extra) {
      config =
          redis.configure(
              Containers.config()
                  .set("bulwark.fault-tolerance.bulkhead.distributed", "true")
                  .set("bulwark.fault-tolerance.rate-limit.distributed", "true"));
      extra.forEach(config::set);
      container = Containers.boot(Reports.class);
      // the same limits as the bridge declares, by Bulwark's named keys
      otherJvm =
          redis.engine(
              Map.of(
                  "bulwark.bulkhead." + RUN + ".value", "1",
                  "bulwark.bulkhead." + LATER + ".value", "1",
                  "bulwark.bulkhead." + LATER_WITHOUT_RETRY + ".value", "1",
                  "bulwark.rate-limit." + QUOTE, "1/1m",
                  "bulwark.rate-limit." + QUOTE + ".type", "fixed",
                  "bulwark.rate-limit." + BARE_QUOTE, "1/1m",
                  "bulwark.rate-limit." + BARE_QUOTE + ".type", "fixed"));
    }

    @Override
    public void close() {
      otherJvm.close();
      container.close();
      config.close();
      redis.close();
    }
  }
}
