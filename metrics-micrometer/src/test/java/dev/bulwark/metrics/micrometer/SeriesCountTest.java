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
 * How many Prometheus series one bulkhead costs. SmallRye Fault Tolerance's own metrics of a
 * {@code @Bulkhead} method on Micrometer are 8 series (12 for an asynchronous one); Bulwark's are
 * more, since it also counts rejections by reason, times the waits and reports the store, but of
 * the same order: its timers publish a few buckets, enough for the percentiles a dashboard shows,
 * not Micrometer's full percentile histogram (which made one bulkhead 278 series).
 */
class SeriesCountTest {

  /** Calls by result and reason 6, three timers of 6 buckets, count, sum and max 30, the rest 8. */
  static final int SERIES_OF_ONE_BULKHEAD = 44;

  @Test
  void oneBulkheadMakesAFewDozenSeriesWithItsPercentileBuckets() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MetricsCollector metrics = new MetricsCollector(new MicrometerRecorder(registry));
    try (BulwarkEngine engine =
        BulwarkEngine.builder(ConfigLookup.of(Map.of("bulwark.bulkhead.counted.value", "3")))
            .listeners(List.of(metrics))
            .start()) {
      metrics.bind(engine);
      engine.registry().bulkhead("counted").acquire().close();
      try (Permit permit = engine.registry().bulkhead("counted").acquire()) {
        List<String> series =
            registry
                .scrape()
                .lines()
                .filter(line -> !line.startsWith("#") && line.contains("name=\"counted\""))
                .toList();

        assertThat(series).hasSize(SERIES_OF_ONE_BULKHEAD);
        assertThat(series)
            .as("the buckets percentiles are computed from, across JVMs")
            .anyMatch(line -> line.startsWith("bulwark_wait_time_seconds_bucket{"))
            .anyMatch(line -> line.startsWith("bulwark_hold_time_seconds_bucket{"));
      }
    }
  }
}
