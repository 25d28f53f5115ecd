package dev.bulwark.ftquarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadFullException;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mapped bulkheads of an {@code @Asynchronous} {@code CompletionStage} method and of a {@code Uni}
 * method on Quarkus: the cluster permit is held until the result completes, so Bulwark's cap (2)
 * rejects below FT's own value (5), with a failed result rather than a thrown exception.
 */
@QuarkusTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncOnQuarkusTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  @Inject Later later;

  @Test
  void anAsynchronousStageHoldsItsClusterPermitUntilItCompletes() throws Exception {
    holdsTwoThenRejects(later::stage);
  }

  @Test
  void aUniHoldsItsClusterPermitPerSubscriptionUntilItCompletes() throws Exception {
    holdsTwoThenRejects(gate -> later.uni(gate).subscribeAsCompletionStage());
  }

  private static void holdsTwoThenRejects(Function<AsyncGate, CompletionStage<String>> call)
      throws Exception {
    AsyncGate gate = new AsyncGate();
    List<CompletableFuture<String>> held = new ArrayList<>();
    try {
      held.add(call.apply(gate).toCompletableFuture());
      held.add(call.apply(gate).toCompletableFuture());
      gate.awaitInside(2, WAIT);

      assertThat(call.apply(AsyncGate.opened()).toCompletableFuture())
          .failsWithin(WAIT)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isExactlyInstanceOf(BulkheadFullException.class);
    } finally {
      gate.open();
    }
    for (CompletableFuture<String> heldCall : held) {
      assertThat(heldCall).succeedsWithin(WAIT).isEqualTo("ran");
    }
    assertThat(gate.maxInside()).isEqualTo(2);
    assertThat(call.apply(AsyncGate.opened()).toCompletableFuture())
        .succeedsWithin(WAIT)
        .isEqualTo("ran");
  }
}
