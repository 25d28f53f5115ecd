package dev.bulwark.metrics.mp;

import dev.bulwark.core.metrics.Metric;
import dev.bulwark.core.metrics.MetricsCollector;
import dev.bulwark.core.metrics.MetricsRecorder;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Makes Bulwark's metrics in a MicroProfile Metrics 5.1 {@link MetricRegistry}, named in
 * MicroProfile Fault Tolerance's style: a counter's name ends in {@code .total} ({@code
 * bulwark.calls.total}); exported to Prometheus they read as the Micrometer module's. MicroProfile
 * Metrics has no counter that reads a value, so a counter read from the engine is a gauge of the
 * count. Outside CDI: {@code new MetricsCollector(new MpMetricsRecorder(registry))} as a listener
 * of the engine, then {@link MetricsCollector#bind}.
 */
public final class MpMetricsRecorder implements MetricsRecorder {

  private final MetricRegistry registry;

  public MpMetricsRecorder(MetricRegistry registry) {
    this.registry = registry;
  }

  /** The MicroProfile Metrics name of {@code metric}. */
  public static String name(Metric metric) {
    return metric.type() == Metric.Type.COUNTER
        ? metric.metricName() + ".total"
        : metric.metricName();
  }

  @Override
  public MetricsRecorder.CounterHandle counter(Metric metric, Map<String, String> tags) {
    Counter counter = registry.counter(name(metric), tags(tags));
    return counter::inc;
  }

  @Override
  public void counter(Metric metric, Map<String, String> tags, LongSupplier count) {
    registry.gauge(name(metric), count, LongSupplier::getAsLong, tags(tags));
  }

  @Override
  public MetricsRecorder.TimerHandle timer(Metric metric, Map<String, String> tags) {
    Timer timer = registry.timer(name(metric), tags(tags));
    return timer::update;
  }

  @Override
  public void gauge(Metric metric, Map<String, String> tags, DoubleSupplier value) {
    registry.gauge(name(metric), value, DoubleSupplier::getAsDouble, tags(tags));
  }

  private static Tag[] tags(Map<String, String> tags) {
    return tags.entrySet().stream().map(e -> new Tag(e.getKey(), e.getValue())).toArray(Tag[]::new);
  }
}
