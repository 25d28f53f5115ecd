package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.engine.BulwarkEngine;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A mapped {@code @Asynchronous @Bulkhead} returning {@code CompletionStage}: the cluster permit is
 * held until the stage completes, and the cap rejects with a failed stage where FT's own
 * asynchronous bulkhead of another JVM (value 2, queue 5) would admit, on a real Redis.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncBulkheadMappedTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  @ApplicationScoped
  public static class Exports {
    @Asynchronous
    @Bulkhead(value = 2, waitingTaskQueue = 5)
    public CompletionStage<String> run(AsyncGate gate) {
      return gate.enter();
    }
  }

  /**
   * Another JVM (an engine of its own on the same Redis) holds both permits: this JVM's FT admits
   * the call (it runs none), the cluster-wide bulkhead rejects it with a failed stage; and a stage
   * of this JVM keeps its cluster permit until it completes.
   */
  @Test
  void theClusterCapHoldsUntilEachStageCompletes() throws Exception {
    String name =
        FaultToleranceOracle.name(Exports.class, Exports.class.getMethod("run", AsyncGate.class));
    try (SharedRedis redis = new SharedRedis();
        Containers.Config config =
            redis.configure(
                Containers.config()
                    .set(Exports.class.getName() + "/run/Bulkhead/distributed", "true"));
        WeldContainer container = Containers.boot(Exports.class);
        BulwarkEngine otherJvm = redis.engine(Map.of("bulwark.bulkhead." + name + ".value", "2"))) {
      Exports exports = container.select(Exports.class).get();
      BulkheadHandle elsewhere = otherJvm.programmatic().bulkhead(name);
      Permit first = elsewhere.acquire();
      Permit second = elsewhere.acquire();

      assertThat(exports.run(AsyncGate.opened()).toCompletableFuture())
          .failsWithin(WAIT)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isInstanceOf(BulkheadFullException.class);
      first.close();
      second.close();

      AsyncGate gate = new AsyncGate();
      List<CompletableFuture<String>> held = new ArrayList<>();
      held.add(exports.run(gate).toCompletableFuture());
      held.add(exports.run(gate).toCompletableFuture());
      gate.awaitInside(2, WAIT);
      assertThat(elsewhere.tryAcquire()).as("both permits held while the stages run").isEmpty();
      gate.open();
      for (CompletableFuture<String> call : held) {
        assertThat(call).succeedsWithin(WAIT).isEqualTo("ran");
      }
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  elsewhere.tryAcquire().ifPresentOrElse(Permit::close, () -> fail("still held")));
      assertThat(gate.maxInside()).isEqualTo(2);
    }
  }
}
