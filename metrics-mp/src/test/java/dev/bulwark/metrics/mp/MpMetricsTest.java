package dev.bulwark.metrics.mp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.RateLimiter;
import dev.bulwark.core.metrics.MetricsCollector;
import io.smallrye.metrics.SharedMetricRegistries;
import io.smallrye.metrics.exporters.PrometheusMetricsExporter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real calls through an engine on the local store, into SmallRye Metrics' MP Metrics registry. */
class MpMetricsTest {

  private final MetricRegistry registry =
      SharedMetricRegistries.getOrCreate(MetricRegistry.APPLICATION_SCOPE);
  private final MetricsCollector metrics = new MetricsCollector(new MpMetricsRecorder(registry));
  private final BulwarkEngine engine =
      BulwarkEngine.builder(
              ConfigLookup.of(
                  Map.of(
                      "bulwark.bulkhead.mp-reports.value", "1",
                      "bulwark.bulkhead.mp-reports.waiting-time", "10s",
                      "bulwark.rate-limit.mp-quotes", "2/1m")))
          .listeners(List.of(metrics))
          .start();

  {
    metrics.bind(engine);
  }

  @AfterEach
  void stop() {
    engine.close();
    SharedMetricRegistries.dropAll();
  }

  @Test
  void countsAndTimesBulkheadCallsAndExportsThemToPrometheus() throws Exception {
    BulkheadLimiter bulkhead = engine.registry().bulkhead("mp-reports");
    Permit first = bulkhead.acquire();
    assertThat(gauge("bulwark.running", "mp-reports")).isEqualTo(1);
    assertThatThrownBy(() -> bulkhead.acquire(0)).isInstanceOf(BulkheadFullException.class);
    CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> bulkhead.acquire().close());
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (bulkhead.stats().waited() == 0) {
      assertThat(System.nanoTime()).as("the waiter queued").isLessThan(deadline);
      Thread.sleep(1);
    }
    Thread.sleep(50); // the waiter waits at least this long: it is queued behind `first`
    first.close();
    waiter.get(10, TimeUnit.SECONDS);

    assertThat(calls("mp-reports", "granted", "none")).isEqualTo(2);
    assertThat(calls("mp-reports", "rejected", "full")).isEqualTo(1);
    assertThat(gauge("bulwark.running", "mp-reports")).isZero();
    assertThat(gauge("bulwark.limit", "mp-reports")).isEqualTo(1);
    Timer waits =
        registry.getTimer(
            new MetricID(
                "bulwark.wait.time",
                new Tag("name", "mp-reports"),
                new Tag("kind", "bulkhead"),
                new Tag("result", "granted")));
    assertThat(waits.getCount()).isEqualTo(2);
    assertThat(waits.getSnapshot().getMax())
        .as("the queued call's wait, in nanoseconds")
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    Timer holds =
        registry.getTimer(
            new MetricID(
                "bulwark.hold.time", new Tag("name", "mp-reports"), new Tag("kind", "bulkhead")));
    assertThat(holds.getCount()).isEqualTo(2);

    String scrape = new PrometheusMetricsExporter().exportAllScopes();
    assertThat(scrape)
        .contains("bulwark_calls_total{")
        .contains("bulwark_wait_time_seconds")
        .contains("bulwark_store_available{");
  }

  @Test
  void countsRateLimitCallsAndShowsTheStoreAvailable() {
    RateLimiter quotes = engine.registry().rateLimiter("mp-quotes");
    assertThat(List.of(quotes.tryAcquire(), quotes.tryAcquire(), quotes.tryAcquire()))
        .containsExactly(true, true, false);

    assertThat(calls("mp-quotes", "granted", "none")).isEqualTo(2);
    assertThat(calls("mp-quotes", "rejected", "full")).isEqualTo(1);
    assertThat(gauge("bulwark.limit", "mp-quotes")).isEqualTo(2);
    assertThat(
            registry
                .getGauge(new MetricID("bulwark.store.available", new Tag("store", "local")))
                .getValue()
                .intValue())
        .isEqualTo(1);
  }

  private long calls(String name, String result, String reason) {
    return registry
        .getCounter(
            new MetricID(
                "bulwark.calls.total",
                new Tag("name", name),
                new Tag("kind", name.equals("mp-quotes") ? "rate-limit" : "bulkhead"),
                new Tag("result", result),
                new Tag("reason", reason)))
        .getCount();
  }

  private double gauge(String metric, String name) {
    return registry
        .getGauges((id, m) -> id.getName().equals(metric) && name.equals(id.getTags().get("name")))
        .values()
        .iterator()
        .next()
        .getValue()
        .doubleValue();
  }
}
