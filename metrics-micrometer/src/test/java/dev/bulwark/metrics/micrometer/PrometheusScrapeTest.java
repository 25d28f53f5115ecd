package dev.bulwark.metrics.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.metrics.MetricsCollector;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The names Prometheus scrapes, with the histogram buckets percentiles are computed from, and how
 * many series one bulkhead costs. SmallRye Fault Tolerance's own metrics of a {@code @Bulkhead}
 * method on Micrometer are 8 series (12 for an asynchronous one: invocations by result, bulkhead
 * calls accepted and rejected, executions running and waiting, timers of count, sum and max).
 * Bulwark's are more, since it also counts rejections by reason, times waits and holds and reports
 * the store and the cluster, but of the same order: its timers publish six buckets, enough for the
 * percentiles a dashboard shows, not Micrometer's full percentile histogram (which made one
 * bulkhead 278 series).
 */
class PrometheusScrapeTest {

  /** Calls by result and reason 6, three timers of 6 buckets, count, sum and max 30, the rest 8. */
  static final int SERIES_OF_ONE_BULKHEAD = 44;

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final MetricsCollector meters = new MetricsCollector(new MicrometerRecorder(registry));

  private BulwarkEngine start() {
    BulwarkEngine engine =
        BulwarkEngine.builder(ConfigLookup.of(Map.of("bulwark.bulkhead.scraped.value", "3")))
            .listeners(List.of(meters))
            .start();
    meters.bind(engine);
    return engine;
  }

  @Test
  void oneBulkheadMakesAFewDozenSeriesWithItsPercentileBuckets() {
    try (BulwarkEngine engine = start()) {
      engine.registry().bulkhead("scraped").acquire().close();
      try (Permit permit = engine.registry().bulkhead("scraped").acquire()) {
        List<String> series =
            registry
                .scrape()
                .lines()
                .filter(line -> !line.startsWith("#") && line.contains("name=\"scraped\""))
                .toList();

        assertThat(series).hasSize(SERIES_OF_ONE_BULKHEAD);
      }
    }
  }

  @Test
  void aScrapeShowsCountersGaugesAndHistogramBuckets() {
    try (BulwarkEngine engine = start()) {
      try (Permit permit = engine.registry().bulkhead("scraped").acquire()) {
        String scrape = registry.scrape();

        assertThat(scrape)
            .contains(
                "bulwark_calls_total{kind=\"bulkhead\",name=\"scraped\",reason=\"none\","
                    + "result=\"granted\"} 1.0")
            .contains("bulwark_running{kind=\"bulkhead\",name=\"scraped\"} 1.0")
            .contains("bulwark_limit{kind=\"bulkhead\",name=\"scraped\"} 3.0")
            .contains("bulwark_store_available{store=\"local\"} 1.0")
            .contains(
                "bulwark_wait_time_seconds_count{kind=\"bulkhead\",name=\"scraped\","
                    + "result=\"granted\"} 1")
            .contains(
                "bulwark_wait_time_seconds_bucket{kind=\"bulkhead\",name=\"scraped\",result=\"granted\",le=\"+Inf\"} 1");
      }
      assertThat(registry.scrape())
          .contains("bulwark_hold_time_seconds_count{kind=\"bulkhead\",name=\"scraped\"} 1")
          .contains("bulwark_running{kind=\"bulkhead\",name=\"scraped\"} 0.0");
    }
  }
}
