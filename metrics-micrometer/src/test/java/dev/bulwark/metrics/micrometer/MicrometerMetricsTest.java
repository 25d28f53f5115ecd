package dev.bulwark.metrics.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.KeyedLock;
import dev.bulwark.core.engine.RateLimiter;
import dev.bulwark.core.metrics.MetricsCollector;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real calls through an engine on the local store, recorded into a real Micrometer registry. */
class MicrometerMetricsTest {

  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final MetricsCollector meters = new MetricsCollector(new MicrometerRecorder(registry));
  private final BulwarkEngine engine =
      BulwarkEngine.builder(
              ConfigLookup.of(
                  Map.of(
                      "bulwark.bulkhead.reports.value", "1",
                      "bulwark.bulkhead.reports.waiting-time", "10s",
                      "bulwark.rate-limit.quotes", "2/1m",
                      "bulwark.lock.ledger.waiting-time", "0")))
          .listeners(List.of(meters))
          .start();

  {
    meters.bind(engine);
  }

  @AfterEach
  void stop() {
    engine.close();
  }

  @Test
  void countsEachBulkheadCallByResultAndTimesWaitsAndHolds() throws Exception {
    BulkheadLimiter bulkhead = engine.registry().bulkhead("reports");
    Permit first = bulkhead.acquire();
    assertThat(gauge("bulwark.running", "reports")).isEqualTo(1);
    assertThatThrownBy(() -> bulkhead.acquire(0)).isInstanceOf(BulkheadFullException.class);

    CompletableFuture<Long> waiter =
        CompletableFuture.supplyAsync(
            () -> {
              long start = System.nanoTime();
              try (Permit second = bulkhead.acquire()) {
                return System.nanoTime() - start;
              }
            });
    awaitQueued(bulkhead);
    long heldAtLeast = System.nanoTime();
    Thread.sleep(50); // the waiter waits at least this long: it is queued behind `first`
    first.close();
    long waitedNanos = waiter.get(10, TimeUnit.SECONDS);
    long heldNanos = System.nanoTime() - heldAtLeast;

    assertThat(calls("reports", "granted", "none")).isEqualTo(2);
    assertThat(calls("reports", "rejected", "full")).isEqualTo(1);
    assertThat(calls("reports", "rejected", "timed-out")).isZero();
    assertThat(calls("reports", "passed-through", "none")).isZero();
    assertThat(gauge("bulwark.running", "reports")).isZero();
    assertThat(gauge("bulwark.limit", "reports")).isEqualTo(1);

    Timer waits = timer("bulwark.wait.time", "reports", "granted");
    assertThat(waits.count()).isEqualTo(2);
    assertThat(waits.max(TimeUnit.NANOSECONDS))
        .as("the queued call's wait")
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50))
        .isLessThanOrEqualTo(waitedNanos);
    assertThat(timer("bulwark.wait.time", "reports", "rejected").count()).isEqualTo(1);
    Timer holds = registry.get("bulwark.hold.time").tag("name", "reports").timer();
    assertThat(holds.count()).isEqualTo(2);
    assertThat(holds.max(TimeUnit.NANOSECONDS))
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50))
        .isLessThan(heldNanos + TimeUnit.SECONDS.toNanos(10));
  }

  @Test
  void countsRateLimitGrantsAndRejectionsAndShowsItsValue() {
    RateLimiter quotes = engine.registry().rateLimiter("quotes");
    List<Boolean> taken = List.of(quotes.tryAcquire(), quotes.tryAcquire(), quotes.tryAcquire());

    assertThat(taken).containsExactly(true, true, false);
    assertThat(calls("quotes", "granted", "none")).isEqualTo(2);
    assertThat(calls("quotes", "rejected", "full")).isEqualTo(1);
    assertThat(gauge("bulwark.limit", "quotes")).isEqualTo(2);
    assertThat(registry.find("bulwark.running").tag("name", "quotes").gauge())
        .as("a rate limit holds nothing")
        .isNull();
    assertThat(registry.find("bulwark.hold.time").tag("name", "quotes").timer()).isNull();
  }

  @Test
  void countsLocksAndTheirHoldersOfThisJvm() {
    KeyedLock ledger = engine.registry().lock("ledger");
    try (LockPermit a = ledger.lock("a", LockMode.READ);
        LockPermit b = ledger.lock("b", LockMode.WRITE)) {
      assertThat(gauge("bulwark.running", "ledger")).isEqualTo(2);
      assertThat(CompletableFuture.supplyAsync(() -> ledger.tryLock("b", LockMode.READ)).join())
          .as("another thread finds the key written")
          .isEmpty();
    }
    assertThat(gauge("bulwark.running", "ledger")).isZero();
    assertThat(calls("ledger", "granted", "none")).isEqualTo(2);
    assertThat(calls("ledger", "rejected", "full")).isEqualTo(1);
    assertThat(registry.get("bulwark.hold.time").tag("name", "ledger").timer().count())
        .isEqualTo(2);
  }

  @Test
  void theLocalStoreIsAlwaysAvailableAndNeverFails() {
    engine.registry().bulkhead("reports").acquire().close();

    assertThat(registry.get("bulwark.store.available").tag("store", "local").gauge().value())
        .isEqualTo(1);
    assertThat(
            registry
                .get("bulwark.store.failures")
                .tags("name", "reports", "store", "local", "policy", "fail-closed")
                .functionCounter()
                .count())
        .isZero();
  }

  @Test
  void clusterGaugesReadHoldersQueueAndAvailablePermitsFromTheStore() throws Exception {
    BulkheadLimiter bulkhead = engine.registry().bulkhead("reports");
    RateLimiter quotes = engine.registry().rateLimiter("quotes");
    try (Permit held = bulkhead.acquire()) {
      CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> bulkhead.acquire().close());
      awaitQueued(bulkhead);
      awaitGauge("bulwark.cluster.queued", "reports", 1);
      assertThat(gauge("bulwark.cluster.holders", "reports")).isEqualTo(1);
      assertThat(gauge("bulwark.cluster.available", "reports")).isZero();
      held.close();
      waiter.get(10, TimeUnit.SECONDS);
    }
    awaitGauge("bulwark.cluster.available", "reports", 1);

    // a limit built after bind gets its gauges with its first event
    assertThat(quotes.tryAcquire()).isTrue();
    awaitGauge("bulwark.cluster.available", "quotes", 1);
    assertThat(quotes.tryAcquire()).isTrue();
    awaitGauge("bulwark.cluster.available", "quotes", 0);
    assertThat(registry.find("bulwark.cluster.queued").tag("name", "quotes").gauge())
        .as("a rate limit queues nobody")
        .isNull();
  }

  /** Waits (10 s at most) past the reuse of a snapshot until the gauge shows the value. */
  private void awaitGauge(String meter, String name, double value) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (gauge(meter, name) != value) {
      assertThat(System.nanoTime()).as(meter + " reached " + value).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private double calls(String name, String result, String reason) {
    Counter counter =
        registry
            .get("bulwark.calls")
            .tags("name", name, "result", result, "reason", reason)
            .counter();
    return counter.count();
  }

  private double gauge(String meter, String name) {
    return registry.get(meter).tag("name", name).gauge().value();
  }

  private Timer timer(String meter, String name, String result) {
    return registry.get(meter).tags("name", name, "result", result).timer();
  }

  private static void awaitQueued(BulkheadLimiter bulkhead) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (bulkhead.stats().waited() == 0) {
      assertThat(System.nanoTime()).as("the waiter queued within 10 s").isLessThan(deadline);
      Thread.sleep(1);
    }
  }
}
