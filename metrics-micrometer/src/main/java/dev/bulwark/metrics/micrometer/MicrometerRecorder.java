package dev.bulwark.metrics.micrometer;

import dev.bulwark.core.metrics.Metric;
import dev.bulwark.core.metrics.MetricsCollector;
import dev.bulwark.core.metrics.MetricsRecorder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Makes Bulwark's metrics as Micrometer meters in a {@link MeterRegistry}. Outside CDI: {@code new
 * MetricsCollector(new MicrometerRecorder(registry))} as a listener of the engine, then {@link
 * MetricsCollector#bind}.
 */
public final class MicrometerRecorder implements MetricsRecorder {

  /**
   * The bucket bounds of every timer: few enough that a limit costs a few dozen series (a full
   * percentile histogram costs about 70 per timer), spread so that Prometheus still computes the
   * median, 95th and 99th percentile across JVMs from them, from a store round trip to a long wait.
   */
  static final Duration[] BUCKETS = {
    Duration.ofMillis(1),
    Duration.ofMillis(10),
    Duration.ofMillis(50),
    Duration.ofMillis(250),
    Duration.ofSeconds(1),
    Duration.ofSeconds(10)
  };

  private final MeterRegistry registry;

  /** A function counter holds what it reads weakly: the recorder keeps it alive. */
  private final List<LongSupplier> counted = new CopyOnWriteArrayList<>();

  public MicrometerRecorder(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public MetricsRecorder.CounterHandle counter(Metric metric, Map<String, String> tags) {
    Counter counter =
        Counter.builder(metric.metricName())
            .description(metric.description())
            .tags(tags(tags))
            .register(registry);
    return counter::increment;
  }

  @Override
  public void counter(Metric metric, Map<String, String> tags, LongSupplier count) {
    counted.add(count);
    FunctionCounter.builder(metric.metricName(), count, LongSupplier::getAsLong)
        .description(metric.description())
        .tags(tags(tags))
        .register(registry);
  }

  @Override
  public MetricsRecorder.TimerHandle timer(Metric metric, Map<String, String> tags) {
    Timer timer =
        Timer.builder(metric.metricName())
            .description(metric.description())
            .tags(tags(tags))
            .serviceLevelObjectives(BUCKETS)
            .register(registry);
    return timer::record;
  }

  @Override
  public void gauge(Metric metric, Map<String, String> tags, DoubleSupplier value) {
    Gauge.builder(metric.metricName(), value, DoubleSupplier::getAsDouble)
        .description(metric.description())
        .tags(tags(tags))
        .strongReference(true)
        .register(registry);
  }

  private static List<Tag> tags(Map<String, String> tags) {
    return tags.entrySet().stream().map(e -> Tag.of(e.getKey(), e.getValue())).toList();
  }
}
