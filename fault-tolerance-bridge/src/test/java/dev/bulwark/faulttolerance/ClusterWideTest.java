package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.RateLimitExceededException;
import io.smallrye.faulttolerance.api.RateLimit;
import io.smallrye.faulttolerance.api.RateLimitType;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Existing MicroProfile FT annotations made cluster-wide: two Weld containers in this JVM, each
 * with SmallRye FT and its own Bulwark engine, share one real Redis. SmallRye's per-JVM bulkhead
 * would admit every call below; only the cluster-wide limit rejects them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterWideTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  @ApplicationScoped
  public static class Reports {
    @Bulkhead(3)
    public String run(Gate gate) {
      gate.pass();
      return "ran";
    }

    @Bulkhead(3)
    public String busy(Occupancy occupancy) {
      occupancy.stay(Duration.ofMillis(2));
      return "ran";
    }
  }

  /** A cluster-wide rejection reaches FT's @Fallback, as the per-JVM one does. */
  @ApplicationScoped
  public static class WithFallback {
    @Bulkhead(3)
    @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
    public String run(Gate gate) {
      gate.pass();
      return "ran";
    }

    public String busy(Gate gate) {
      return "fallback";
    }
  }

  /** The same bulkhead, kept per JVM by its class key. */
  @ApplicationScoped
  public static class LocalReports {
    @Bulkhead(3)
    public String run(Gate gate) {
      gate.pass();
      return "ran";
    }
  }

  /**
   * Returns a stage without {@code @Asynchronous}: FT's own bulkhead counts the call while the
   * method runs, Bulwark's cluster permit is held until the stage completes.
   */
  @ApplicationScoped
  public static class LaterReports {
    @Bulkhead(3)
    public CompletionStage<String> run(AsyncGate gate) {
      return gate.enter();
    }
  }

  /** Its effective value is 2, from MicroProfile FT's method key. */
  @ApplicationScoped
  public static class Overridden {
    @Bulkhead(5)
    public String run(Gate gate) {
      gate.pass();
      return "ran";
    }
  }

  @ApplicationScoped
  public static class Quotes {
    @RateLimit(value = 3, window = 1, windowUnit = ChronoUnit.MINUTES, type = RateLimitType.ROLLING)
    public String quote() {
      return "quoted";
    }
  }

  /** How many callers are inside at once, at most. */
  static final class Occupancy {
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger max = new AtomicInteger();

    void stay(Duration duration) {
      max.accumulateAndGet(inside.incrementAndGet(), Math::max);
      LockSupport.parkNanos(duration.toNanos());
      inside.decrementAndGet();
    }

    int max() {
      return max.get();
    }
  }

  private static SharedRedis redis;
  private static Containers.Config config;
  private static WeldContainer first;
  private static WeldContainer second;
  private ExecutorService callers;

  /**
   * Both containers live as long as the class: SmallRye FT's interceptor looks up {@code
   * CDI.current()} when it is created (for request-context activation of asynchronous calls, which
   * these tests do not make), and with several Weld SE containers in one JVM that lookup may answer
   * with another running container, but never with a closed one if none closes in between.
   */
  @BeforeAll
  static void boot() {
    redis = new SharedRedis();
    config =
        redis
            .configure(Containers.config())
            .set("bulwark.fault-tolerance.bulkhead.distributed", "true")
            .set("bulwark.fault-tolerance.rate-limit.distributed", "true")
            .set(LocalReports.class.getName() + "/Bulkhead/distributed", "false")
            .set(Overridden.class.getName() + "/run/Bulkhead/value", "2");
    Class<?>[] beans = {
      Reports.class,
      WithFallback.class,
      LocalReports.class,
      LaterReports.class,
      Overridden.class,
      Quotes.class
    };
    first = Containers.boot(beans);
    second = Containers.boot(beans);
  }

  @AfterAll
  static void shutDown() {
    second.close();
    first.close();
    config.close();
    redis.close();
  }

  @BeforeEach
  void startCallers() {
    callers = Executors.newCachedThreadPool();
  }

  @AfterEach
  void stopCallers() throws InterruptedException {
    callers.shutdownNow();
    assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void theBulkheadsValueCapsCallsAcrossBothContainers() throws Exception {
    Reports onFirst = first.select(Reports.class).get();
    Reports onSecond = second.select(Reports.class).get();
    Gate gate = new Gate();
    List<Future<String>> held = new ArrayList<>();
    held.add(callers.submit(() -> onFirst.run(gate)));
    held.add(callers.submit(() -> onFirst.run(gate)));
    held.add(callers.submit(() -> onSecond.run(gate)));
    gate.awaitInside(3, WAIT);

    Throwable onSecondRejected = failure(() -> onSecond.run(Gate.opened()));
    Throwable onFirstRejected = failure(() -> onFirst.run(Gate.opened()));
    gate.open();

    assertThat(onSecondRejected).isInstanceOf(BulkheadFullException.class);
    assertThat(onFirstRejected).isInstanceOf(BulkheadFullException.class);
    for (Future<String> call : held) {
      assertThat(call.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("ran");
    }
    assertThat(gate.maxInside()).isEqualTo(3);
    assertThat(onSecond.run(Gate.opened())).isEqualTo("ran");
  }

  @Test
  void aStageHoldsItsClusterPermitUntilItCompletesAcrossBothContainers() throws Exception {
    LaterReports onFirst = first.select(LaterReports.class).get();
    LaterReports onSecond = second.select(LaterReports.class).get();
    AsyncGate gate = new AsyncGate();
    List<CompletableFuture<String>> held = new ArrayList<>();
    held.add(onFirst.run(gate).toCompletableFuture());
    held.add(onFirst.run(gate).toCompletableFuture());
    held.add(onSecond.run(gate).toCompletableFuture());
    gate.awaitInside(3, WAIT);

    // every method has returned and FT's own bulkheads are empty: the stages hold the cluster.
    // FT reads such a stage as a plain result, so the rejection is thrown, as FT's own would be
    assertThatThrownBy(() -> onSecond.run(AsyncGate.opened()))
        .isInstanceOf(BulkheadFullException.class);
    gate.open();

    for (CompletableFuture<String> call : held) {
      assertThat(call).succeedsWithin(WAIT).isEqualTo("ran");
    }
    assertThat(onSecond.run(AsyncGate.opened())).succeedsWithin(WAIT).isEqualTo("ran");
  }

  /** Bulwark's interceptor runs inside FT's, so FT's @Fallback handles its rejection. */
  @Test
  void fallbackHandlesAClusterWideRejection() throws Exception {
    WithFallback onFirst = first.select(WithFallback.class).get();
    WithFallback onSecond = second.select(WithFallback.class).get();
    Gate gate = new Gate();
    List<Future<String>> held = new ArrayList<>();
    held.add(callers.submit(() -> onFirst.run(gate)));
    held.add(callers.submit(() -> onFirst.run(gate)));
    held.add(callers.submit(() -> onFirst.run(gate)));
    gate.awaitInside(3, WAIT);

    String onSecondOutcome = onSecond.run(Gate.opened());
    gate.open();

    assertThat(onSecondOutcome).isEqualTo("fallback");
    for (Future<String> call : held) {
      assertThat(call.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("ran");
    }
  }

  @Test
  void aBulkheadKeptPerJvmAdmitsItsValueInEachContainer() throws Exception {
    LocalReports onFirst = first.select(LocalReports.class).get();
    LocalReports onSecond = second.select(LocalReports.class).get();
    Gate gate = new Gate();
    List<Future<String>> held = new ArrayList<>();
    held.add(callers.submit(() -> onFirst.run(gate)));
    held.add(callers.submit(() -> onFirst.run(gate)));
    held.add(callers.submit(() -> onSecond.run(gate)));
    gate.awaitInside(3, WAIT);

    held.add(callers.submit(() -> onSecond.run(gate)));
    gate.awaitInside(4, WAIT);
    gate.open();

    for (Future<String> call : held) {
      assertThat(call.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("ran");
    }
    assertThat(gate.maxInside()).isEqualTo(4);
  }

  @Test
  void theClusterCapIsTheEffectiveValueAfterMicroProfileConfig() throws Exception {
    Overridden onFirst = first.select(Overridden.class).get();
    Overridden onSecond = second.select(Overridden.class).get();
    Gate gate = new Gate();
    Future<String> a = callers.submit(() -> onFirst.run(gate));
    Future<String> b = callers.submit(() -> onSecond.run(gate));
    gate.awaitInside(2, WAIT);

    // the first container's own bulkhead (value 2) has room for one more: the cluster has none
    Throwable rejected = failure(() -> onFirst.run(Gate.opened()));
    gate.open();

    assertThat(rejected).isInstanceOf(BulkheadFullException.class);
    assertThat(a.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("ran");
    assertThat(b.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("ran");
  }

  @Test
  void underContentionNoMoreThanTheValueRunAtOnceAcrossBothContainers() throws Exception {
    Occupancy occupancy = new Occupancy();
    List<Future<int[]>> workers = new ArrayList<>();
    for (WeldContainer container : List.of(first, second, first, second, first, second)) {
      Reports reports = container.select(Reports.class).get();
      workers.add(
          callers.submit(
              () -> {
                int[] admittedRejected = new int[2];
                for (int i = 0; i < 20; i++) {
                  try {
                    reports.busy(occupancy);
                    admittedRejected[0]++;
                  } catch (BulkheadException e) {
                    admittedRejected[1]++;
                  }
                }
                return admittedRejected;
              }));
    }
    int admitted = 0;
    int rejected = 0;
    for (Future<int[]> worker : workers) {
      int[] counts = worker.get(30, TimeUnit.SECONDS);
      admitted += counts[0];
      rejected += counts[1];
    }

    assertThat(admitted + rejected).isEqualTo(6 * 20);
    assertThat(admitted).isPositive();
    // three callers per container never fill its own bulkhead of 3: only the cluster's caps them
    assertThat(occupancy.max()).isBetween(1, 3);
  }

  @Test
  void aRateLimitIsCountedAcrossBothContainers() throws Exception {
    Quotes onFirst = first.select(Quotes.class).get();
    Quotes onSecond = second.select(Quotes.class).get();

    List<Object> outcomes = new ArrayList<>();
    outcomes.add(onFirst.quote());
    outcomes.add(onFirst.quote());
    outcomes.add(onSecond.quote());
    outcomes.add(failure(onSecond::quote).getClass());

    // SmallRye's own rejection type, as for its per-JVM rate limit, with Bulwark's as the cause
    assertThat(outcomes)
        .containsExactly("quoted", "quoted", "quoted", ClusterRateLimitException.class);
    assertThat(failure(onSecond::quote)).hasCauseInstanceOf(RateLimitExceededException.class);
  }

  private static Throwable failure(Callable<String> call) {
    try {
      return new AssertionError("admitted: " + call.call());
    } catch (Exception e) {
      return e;
    }
  }
}
