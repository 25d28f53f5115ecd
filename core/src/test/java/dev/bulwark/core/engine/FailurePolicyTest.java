package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.LockMode;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.RateLimitType;
import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.Origin;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.lease.LeaseRenewer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FailurePolicyTest {

  private static final BulkheadDefinition BULKHEAD =
      new BulkheadDefinition(
          "downstream",
          Origin.programmatic(),
          true,
          1,
          Duration.ZERO,
          Duration.ofSeconds(30),
          Map.of());

  private final SwitchableStore[] store = new SwitchableStore[1];

  private BulwarkEngine engine(String policy) {
    return BulwarkEngine.start(
        ConfigLookup.of(
            Map.of("bulwark.store", SwitchableStore.ID, "bulwark.failure-policy", policy)),
        List.of(SwitchableStore.provider(store)));
  }

  @Test
  void failClosedThrowsStoreUnavailableAndResumesWhenTheStoreIsBack() {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      store[0].down = true;
      assertThatThrownBy(limiter::acquire)
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("'downstream'")
          .satisfies(
              e ->
                  assertThat(((StoreUnavailableException) e).getLimitName())
                      .isEqualTo("downstream"));
      store[0].down = false;
      limiter.acquire().close();
      assertThat(limiter.stats().storeFailures()).isEqualTo(1);
    }
  }

  @Test
  void aQueuedRequestTheStoreFailsUnderIsNoLongerRenewed() throws Exception {
    BulkheadDefinition waiting =
        new BulkheadDefinition(
            "queued",
            Origin.programmatic(),
            true,
            1,
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            Map.of());
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadLimiter limiter = engine.bulkhead(waiting);
      LeaseRenewer renewer = engine.leaseRenewer().orElseThrow();
      Permit held = limiter.acquire();
      CompletableFuture<Permit> waiter = CompletableFuture.supplyAsync(limiter::acquire);
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (renewer.size() < 2) { // the holder and the queued request
        assertThat(System.nanoTime()).isLessThan(deadline);
        Thread.onSpinWait();
      }

      store[0].down = true; // the waiter's next poll fails

      assertThatThrownBy(() -> waiter.get(5, TimeUnit.SECONDS))
          .hasCauseInstanceOf(StoreUnavailableException.class);
      assertThat(renewer.size()).as("only the holder is renewed").isEqualTo(1);
      store[0].down = false;
      held.close();
      assertThat(renewer.size()).isZero();
    }
  }

  @Test
  void failOpenLetsCallsThroughAndCountsThem() {
    try (BulwarkEngine engine = engine("fail-open")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      RateLimiter rate =
          engine.rateLimiter(
              new RateLimitDefinition(
                  "rate",
                  Origin.programmatic(),
                  true,
                  1,
                  Duration.ofHours(1),
                  RateLimitType.SMOOTH,
                  Duration.ZERO,
                  Map.of()));
      store[0].down = true;
      Permit a = limiter.acquire();
      Permit b = limiter.acquire();
      rate.acquire();
      rate.acquire();
      a.close();
      b.close();
      assertThat(limiter.stats().passedThrough()).isEqualTo(2);
      assertThat(rate.stats().passedThrough()).isEqualTo(2);
      store[0].down = false;
      rate.acquire();
      assertThatThrownBy(rate::acquire).isInstanceOf(RateLimitExceededException.class);
    }
  }

  @Test
  void localPolicyEnforcesTheLimitPerJvmWhileTheStoreIsDown() {
    try (BulwarkEngine engine = engine("local")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      KeyedLock lock =
          engine.lock(
              new LockDefinition(
                  "accounts",
                  Origin.programmatic(),
                  true,
                  LockMode.WRITE,
                  Duration.ZERO,
                  Duration.ofSeconds(30),
                  Map.of()));
      store[0].down = true;
      Permit held = limiter.acquire();
      assertThatThrownBy(limiter::acquire).isInstanceOf(BulkheadFullException.class);
      held.close();
      limiter.acquire().close();
      var write = lock.lock("1", LockMode.WRITE);
      assertThat(write.fencingToken()).isPositive();
      write.close();
    }
  }

  @Test
  void anUnknownPolicyOrStoreIsADefinitionError() {
    assertThatThrownBy(() -> engine("sometimes"))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("bulwark.failure-policy");
    assertThatThrownBy(
            () -> BulwarkEngine.start(ConfigLookup.of(Map.of("bulwark.store", "zookeeper"))))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("bulwark.store")
        .hasMessageContaining("local");
  }
}
