package dev.bulwark.core.metrics;

import java.time.Duration;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Where {@link MetricsCollector} records: one implementation per metrics library (Micrometer,
 * MicroProfile Metrics), which makes the library's meters and nothing else. Which metrics exist,
 * with which tags, and what each event does to them is the collector's, once for every library.
 *
 * <p>Each method is called once per metric and tag set, when the collector registers it; the
 * returned handles are kept and used on every event.
 */
public interface MetricsRecorder {

  /** A counter the collector increments. */
  CounterHandle counter(Metric metric, Map<String, String> tags);

  /** A counter whose count is read from {@code count} when it is scraped. */
  void counter(Metric metric, Map<String, String> tags, LongSupplier count);

  /** A timer the collector records durations into. */
  TimerHandle timer(Metric metric, Map<String, String> tags);

  /** A gauge whose value is read from {@code value} when it is scraped (NaN: no value now). */
  void gauge(Metric metric, Map<String, String> tags, DoubleSupplier value);

  /** A counter as a recorder made it. */
  @FunctionalInterface
  interface CounterHandle {
    void increment();
  }

  /** A timer as a recorder made it. */
  @FunctionalInterface
  interface TimerHandle {
    void record(Duration duration);
  }
}
