package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Permit;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.Origin;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A queued request the store dropped before its caller's waiting time ran out (its lease lapsed
 * while its JVM stood still, or while a renewal was held up) asks again and waits on: it is granted
 * once the permit is free, not refused with waiting time left. Blocking and asynchronous waits
 * alike.
 */
@Timeout(30)
class DroppedRequestTest {

  private final SwitchableStore[] store = new SwitchableStore[1];

  private static final BulkheadDefinition ONE =
      new BulkheadDefinition(
          "dropped",
          Origin.programmatic(),
          true,
          1,
          Duration.ofSeconds(10),
          Duration.ofMinutes(1),
          Map.of());

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"blocking", "async"})
  void aRequestDroppedWhileItWaitsAsksAgainAndIsGrantedOnceThePermitIsFree(String how)
      throws Exception {
    try (BulwarkEngine engine =
        BulwarkEngine.start(
            ConfigLookup.of(Map.of("bulwark.store", SwitchableStore.ID)),
            List.of(SwitchableStore.provider(store)))) {
      BulkheadLimiter limiter = engine.bulkhead(ONE);
      Permit held = limiter.acquire();
      Function<Long, CompletableFuture<Permit>> acquire =
          "async".equals(how)
              ? limiter::acquireAsync
              : wait -> CompletableFuture.supplyAsync(() -> limiter.acquire(wait));
      int pollsBefore = store[0].polls.get();
      store[0].dropNextPolled = true;
      CompletableFuture<Permit> waiter = acquire.apply(TimeUnit.SECONDS.toNanos(10));

      // the waiter polls once per check interval (50 ms): its first poll finds it dropped
      while (store[0].dropNextPolled) {
        assertThat(waiter).as("still waiting once its request was dropped").isNotDone();
        Thread.sleep(10);
      }
      int pollsAtDrop = store[0].polls.get();
      while (store[0].polls.get() < pollsAtDrop + 2) { // polls of the request asked again
        assertThat(waiter).as("waiting on after its request was dropped").isNotDone();
        Thread.sleep(10);
      }
      assertThat(limiter.inspect().queued()).as("queued again").isEqualTo(1);

      held.close();
      try (Permit granted = waiter.get(10, TimeUnit.SECONDS)) {
        assertThat(granted).isNotNull();
      }
      assertThat(store[0].polls.get()).isGreaterThan(pollsBefore);
    }
  }
}
