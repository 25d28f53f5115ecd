package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine on the JPA store, found through {@code bulwark.store=jpa}: two engines (two JVMs) on
 * PostgreSQL share a bulkhead, and a waiter queued longer than its lease keeps its place (the
 * engine renews queued requests) and is handed the permit when the other engine releases it.
 */
class EngineOnJpaTest {

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);

  @AfterEach
  void dropTables() {
    fixture.close();
  }

  @Test
  @Timeout(60)
  void aWaiterOfAnotherEngineQueuedLongerThanItsLeaseGetsThePermitAtTheRelease() throws Exception {
    Map<String, String> limits =
        Map.of(
            "bulwark.bulkhead.shared.value", "1",
            "bulwark.bulkhead.shared.lease", "600ms",
            "bulwark.bulkhead.shared.waiting-time", "20s");
    try (BulwarkEngine first = start(limits);
        BulwarkEngine second = start(limits)) {
      BulkheadHandle firstBulkhead = first.programmatic().bulkhead("shared");
      BulkheadHandle secondBulkhead = second.programmatic().bulkhead("shared");
      Permit held = firstBulkhead.acquire();
      assertThat(secondBulkhead.tryAcquire()).as("the other engine's holder counts").isEmpty();
      CompletableFuture<Long> waiter =
          CompletableFuture.supplyAsync(
              () -> {
                try (Permit permit = secondBulkhead.acquire()) {
                  return System.nanoTime();
                }
              });
      awaitQueued();
      Thread.sleep(2_000); // more than three leases: only renewals keep both rows
      assertThat(waiter).isNotDone();
      long released = System.nanoTime();
      held.close();
      assertThat(waiter.get(20, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(released);
    }
  }

  private void awaitQueued() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (queuedRows() == 0) {
      assertThat(System.nanoTime()).as("the waiter queued in time").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private long queuedRows() {
    try (var connection = TestDatabase.POSTGRESQL.connect();
        var statement = connection.createStatement();
        var result =
            statement.executeQuery(
                "SELECT COUNT(*) FROM " + fixture.prefix() + "claim WHERE NOT held")) {
      result.next();
      return result.getLong(1);
    } catch (java.sql.SQLException e) {
      return 0; // the tables appear with the first engine's store
    }
  }

  /**
   * A holder that died: nothing releases its permit, so only a waiter's check finds it gone once
   * its lease ran out; this JVM's ten waiters share one check per interval, and the one that finds
   * it reclaims the permit and hands it down the queue.
   */
  @Test
  @Timeout(60)
  void aPermitWhoseHolderDiedReachesTheWaitersAfterItsLease() throws Exception {
    Map<String, String> limits =
        Map.of(
            "bulwark.bulkhead.shared.value", "1",
            "bulwark.bulkhead.shared.lease", "600ms",
            "bulwark.bulkhead.shared.waiting-time", "50s",
            "bulwark.jpa.wake-up-check-interval", "200ms");
    try (BulwarkEngine engine = start(limits);
        JpaStore deadJvm = fixture.open(fixture.config(), (request, token) -> {})) {
      // taken and never renewed nor released, as by a JVM that died
      assertThat(deadJvm.permits().acquire(new PermitSpec("shared", 1, 600), 1, true))
          .isEqualTo(Grant.GRANTED);
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("shared");
      List<CompletableFuture<Void>> waiters = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        waiters.add(
            i % 2 == 0
                ? CompletableFuture.runAsync(() -> bulkhead.acquire().close())
                : bulkhead.acquireAsync().toCompletableFuture().thenAccept(Permit::close));
      }
      CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(40, TimeUnit.SECONDS);
    }
  }

  private BulwarkEngine start(Map<String, String> limits) {
    Map<String, String> config = new HashMap<>(limits);
    config.put("bulwark.store", "jpa");
    fixture.config().forEach((k, v) -> config.put("bulwark.jpa." + k, v));
    return BulwarkEngine.start(ConfigLookup.of(config));
  }
}
