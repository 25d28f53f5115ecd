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

/** The names Prometheus scrapes, with the histogram buckets percentiles are computed from. */
class PrometheusScrapeTest {

  @Test
  void aScrapeShowsCountersGaugesAndHistogramBuckets() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MetricsCollector meters = new MetricsCollector(new MicrometerRecorder(registry));
    try (BulwarkEngine engine =
        BulwarkEngine.builder(ConfigLookup.of(Map.of("bulwark.bulkhead.scraped.value", "3")))
            .listeners(List.of(meters))
            .start()) {
      meters.bind(engine);
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
