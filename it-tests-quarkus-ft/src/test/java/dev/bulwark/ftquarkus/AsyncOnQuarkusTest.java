package dev.bulwark.ftquarkus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.engine.BulwarkEngine;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mapped bulkheads of an {@code @Asynchronous} {@code CompletionStage} method and of a {@code Uni}
 * method on Quarkus, on a real Redis: the cluster permit is held until the result completes, so
 * with three of FT's 5 held by another engine, this JVM's two running calls fill the cluster and
 * the next is rejected with a failed result, though FT here would admit it.
 */
@QuarkusTest
@TestProfile(OnRedis.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncOnQuarkusTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  @Inject Later later;

  @Test
  void anAsynchronousStageHoldsItsClusterPermitUntilItCompletes() throws Exception {
    holdsUntilCompletion(Limits.name(Later.class, "stage", AsyncGate.class), later::stage);
  }

  @Test
  void aUniHoldsItsClusterPermitPerSubscriptionUntilItCompletes() throws Exception {
    holdsUntilCompletion(
        Limits.name(Later.class, "uni", AsyncGate.class),
        gate -> later.uni(gate).subscribeAsCompletionStage());
  }

  private static void holdsUntilCompletion(
      String name, Function<AsyncGate, CompletionStage<String>> call) throws Exception {
    try (BulwarkEngine other = OnRedis.otherEngine(name, 5)) {
      BulkheadHandle elsewhere = other.programmatic().bulkhead(name);
      List<Permit> heldElsewhere = new ArrayList<>();
      AsyncGate gate = new AsyncGate();
      List<CompletableFuture<String>> held = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          heldElsewhere.add(elsewhere.acquire());
        }
        held.add(call.apply(gate).toCompletableFuture());
        held.add(call.apply(gate).toCompletableFuture());
        gate.awaitInside(2, WAIT);
        assertThat(elsewhere.tryAcquire()).as("the two running calls hold two permits").isEmpty();

        assertThat(call.apply(AsyncGate.opened()).toCompletableFuture())
            .failsWithin(WAIT)
            .withThrowableOfType(ExecutionException.class)
            .havingCause()
            .isExactlyInstanceOf(BulkheadFullException.class);
      } finally {
        gate.open();
        heldElsewhere.forEach(Permit::close);
      }
      for (CompletableFuture<String> heldCall : held) {
        assertThat(heldCall).succeedsWithin(WAIT).isEqualTo("ran");
      }
      assertThat(gate.maxInside()).isEqualTo(2);
      // the completed calls gave their permits back
      await().atMost(WAIT).untilAsserted(() -> assertThat(free(elsewhere, 5)).isEqualTo(5));
      assertThat(call.apply(AsyncGate.opened()).toCompletableFuture())
          .succeedsWithin(WAIT)
          .isEqualTo("ran");
    }
  }

  /** How many of {@code value} permits are free now; takes none for good. */
  private static int free(BulkheadHandle bulkhead, int value) {
    List<Permit> taken = new ArrayList<>();
    try {
      for (int i = 0; i < value; i++) {
        bulkhead.tryAcquire().ifPresent(taken::add);
      }
      return taken.size();
    } finally {
      taken.forEach(Permit::close);
    }
  }

  @AfterAll
  static void deleteKeys() {
    OnRedis.deleteKeys();
  }
}
