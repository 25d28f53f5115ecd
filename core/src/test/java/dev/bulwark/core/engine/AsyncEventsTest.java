package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.Granted;
import dev.bulwark.event.PassedThrough;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.RejectionReason;
import dev.bulwark.event.Released;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The asynchronous path fires the same events and applies the same failure policy as the
 * synchronous one: the links of the chain share their decisions.
 */
@Timeout(30)
class AsyncEventsTest {

  private final SwitchableStore[] store = new SwitchableStore[1];
  private final List<BulwarkEvent> events = new CopyOnWriteArrayList<>();

  private BulwarkEngine engine(String policy) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", SwitchableStore.ID);
    config.put("bulwark.failure-policy", policy);
    config.put("bulwark.bulkhead.single.value", "1");
    config.put("bulwark.bulkhead.single.waiting-time", "100ms");
    return BulwarkEngine.builder(ConfigLookup.of(config))
        .stores(List.of(SwitchableStore.provider(store)))
        .listeners(List.of(events::add))
        .start();
  }

  @Test
  void grantedOnAdmissionAndReleasedWhenTheStageCompletesNotWhenTheMethodReturns()
      throws Exception {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadHandle single = engine.programmatic().bulkhead("single");
      CompletableFuture<String> work = new CompletableFuture<>();
      CompletableFuture<String> call = single.callAsync(() -> work).toCompletableFuture();
      assertThat(events).singleElement().isInstanceOf(Granted.class);

      work.complete("done");
      call.get(5, TimeUnit.SECONDS);
      assertThat(events).hasSize(2).last().isInstanceOf(Released.class);
    }
  }

  @Test
  void aTimedOutAndACancelledWaitAreRejectedWithTheirReasons() throws Exception {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadHandle single = engine.programmatic().bulkhead("single");
      Permit held = single.acquire();
      assertThatThrownBy(() -> single.acquireAsync().toCompletableFuture().get(5, TimeUnit.SECONDS))
          .hasCauseInstanceOf(dev.bulwark.BulkheadFullException.class);
      CompletableFuture<Permit> cancelled = single.acquireAsync().toCompletableFuture();
      cancelled.cancel(false);
      held.close();

      // the withdrawn request's rejection is reported on the engine's thread, after the cancel
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (events.stream().filter(Rejected.class::isInstance).count() < 2
          && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(events)
          .filteredOn(Rejected.class::isInstance)
          .map(e -> ((Rejected) e).reason())
          .containsExactly(RejectionReason.TIMED_OUT, RejectionReason.INTERRUPTED);
      assertThat(engine.registry().bulkhead("single").stats().rejected()).isEqualTo(2);
    }
  }

  @Test
  void failClosedFailsTheStageWithStoreUnavailableAndNeverStartsTheWork() {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadHandle single = engine.programmatic().bulkhead("single");
      store[0].down = true;
      CompletableFuture<String> call =
          single
              .callAsync(
                  () -> {
                    throw new AssertionError("started without a permit");
                  })
              .toCompletableFuture()
              .thenApply(String::valueOf);
      assertThatThrownBy(call::join).hasCauseInstanceOf(StoreUnavailableException.class);
      assertThat(events)
          .filteredOn(Rejected.class::isInstance)
          .singleElement()
          .isInstanceOfSatisfying(
              Rejected.class, r -> assertThat(r.reason()).isEqualTo(RejectionReason.STORE_DOWN));
    }
  }

  @Test
  void failOpenLetsTheCallThroughAndLocalEnforcesTheLimitInThisJvm() throws Exception {
    try (BulwarkEngine engine = engine("fail-open")) {
      BulkheadHandle single = engine.programmatic().bulkhead("single");
      store[0].down = true;
      assertThat(
              single
                  .callAsync(() -> CompletableFuture.completedFuture("through"))
                  .toCompletableFuture()
                  .get(5, TimeUnit.SECONDS))
          .isEqualTo("through");
      assertThat(events).filteredOn(PassedThrough.class::isInstance).hasSize(1);
    }
    try (BulwarkEngine engine = engine("local")) {
      BulkheadHandle single = engine.programmatic().bulkhead("single");
      store[0].down = true;
      CompletableFuture<String> work = new CompletableFuture<>();
      CompletableFuture<String> first = single.callAsync(() -> work).toCompletableFuture();
      assertThatThrownBy(
              () ->
                  single
                      .callAsync(() -> CompletableFuture.completedFuture("second"))
                      .toCompletableFuture()
                      .get(5, TimeUnit.SECONDS))
          .hasCauseInstanceOf(dev.bulwark.BulkheadFullException.class);
      work.complete("first");
      assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("first");
    }
  }
}
