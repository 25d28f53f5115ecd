package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.cdi.BulwarkRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * An {@code @Asynchronous @Timeout} method whose call times out while it waits for a cluster permit
 * on Redis: the caller gets FT's {@code TimeoutException}, and Bulwark withdraws the request, so
 * the method never runs for a caller that gave up (SmallRye alone would start it later).
 */
@org.junit.jupiter.api.Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimedOutWaitTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  @ApplicationScoped
  public static class Reports {
    private final AtomicInteger bodies = new AtomicInteger();

    int bodies() {
      return bodies.get();
    }

    @Asynchronous
    @Timeout(300)
    @DistributedBulkhead(name = "timed-reports", value = 1, waitingTime = 30_000)
    public CompletionStage<String> run(CompletableFuture<String> work) {
      bodies.incrementAndGet();
      return work;
    }
  }

  @Test
  void aCallThatTimesOutWhileWaitingIsWithdrawnAndNeverRuns() throws Exception {
    try (SharedRedis redis = new SharedRedis();
        Containers.Config config = redis.configure(Containers.config());
        WeldContainer container = Containers.boot(Reports.class)) {
      Reports reports = container.select(Reports.class).get();
      BulwarkRuntime runtime = container.select(BulwarkRuntime.class).get();
      Bulwark bulwark = container.select(Bulwark.class).get();

      CompletableFuture<String> held = new CompletableFuture<>();
      reports.run(held); // holds the one permit until the test completes its work
      awaitUntil("the holder runs", () -> reports.bodies() == 1);

      CompletableFuture<String> late =
          reports.run(CompletableFuture.completedFuture("late")).toCompletableFuture();
      assertThat(late)
          .failsWithin(WAIT)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isInstanceOf(TimeoutException.class);

      awaitUntil(
          "the request whose caller timed out leaves the queue, in this JVM and in Redis",
          () ->
              runtime.engine().waiters().size() == 0
                  && bulwark.bulkhead("timed-reports").inspect().queued() == 0);
      held.complete("held");
      awaitUntil(
          "the permit is back",
          () -> bulwark.bulkhead("timed-reports").inspect().holders().isEmpty());
      assertThat(reports.bodies()).as("bodies run: the holder's only").isEqualTo(1);
    }
  }

  private static void awaitUntil(String what, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as(what).isNegative();
      Thread.sleep(10);
    }
  }
}
