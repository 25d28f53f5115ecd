package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadFullException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * asynchronous bulkhead (value 5, queue 5) would admit. Local store: the hold, not the sharing, is
 * under test here ({@link ClusterWideTest} shares one on Redis).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncBulkheadMappedTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  @ApplicationScoped
  public static class Exports {
    @Asynchronous
    @Bulkhead(value = 5, waitingTaskQueue = 5)
    public CompletionStage<String> run(AsyncGate gate) {
      return gate.enter();
    }
  }

  @Test
  void theClusterCapHoldsUntilEachStageCompletes() throws Exception {
    try (Containers.Config config =
            Containers.config()
                .set(Exports.class.getName() + "/run/Bulkhead/distributed", "true")
                .set("bulwark.bulkhead." + Exports.class.getName() + "#run.value", "2");
        WeldContainer container = Containers.boot(Exports.class)) {
      Exports exports = container.select(Exports.class).get();
      AsyncGate gate = new AsyncGate();
      List<CompletableFuture<String>> held = new ArrayList<>();
      held.add(exports.run(gate).toCompletableFuture());
      held.add(exports.run(gate).toCompletableFuture());
      gate.awaitInside(2, WAIT);

      assertThat(exports.run(AsyncGate.opened()).toCompletableFuture())
          .failsWithin(WAIT)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isInstanceOf(BulkheadFullException.class);
      gate.open();

      for (CompletableFuture<String> call : held) {
        assertThat(call).succeedsWithin(WAIT).isEqualTo("ran");
      }
      assertThat(gate.maxInside()).isEqualTo(2);
      assertThat(exports.run(AsyncGate.opened()).toCompletableFuture())
          .succeedsWithin(WAIT)
          .isEqualTo("ran");
    }
  }
}
