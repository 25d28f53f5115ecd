package dev.bulwark.core.metrics;

import dev.bulwark.event.LimitType;
import dev.bulwark.event.RejectionReason;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The event metrics of one limit, registered once when its first event arrives, so an event costs a
 * map lookup and an increment.
 */
final class LimitMetrics {

  final MetricsRecorder.CounterHandle granted;
  final MetricsRecorder.CounterHandle passedThrough;
  final Map<RejectionReason, MetricsRecorder.CounterHandle> rejected =
      new EnumMap<>(RejectionReason.class);
  final MetricsRecorder.TimerHandle waitGranted;
  final MetricsRecorder.TimerHandle waitRejected;

  /** Null for a rate limit, which holds nothing. */
  final MetricsRecorder.TimerHandle held;

  final AtomicInteger running = new AtomicInteger();
  final MetricsRecorder.CounterHandle leasesLost;
  final MetricsRecorder.CounterHandle leasesExpired;

  LimitMetrics(MetricsRecorder recorder, LimitType type, String name) {
    Map<String, String> limit = limitTags(type, name);
    granted = calls(recorder, limit, MetricTags.GRANTED, MetricTags.NO_REASON);
    passedThrough = calls(recorder, limit, MetricTags.PASSED_THROUGH, MetricTags.NO_REASON);
    for (RejectionReason reason : RejectionReason.values()) {
      rejected.put(reason, calls(recorder, limit, MetricTags.REJECTED, MetricTags.reason(reason)));
    }
    waitGranted =
        recorder.timer(Metric.WAIT_TIME, with(limit, MetricTags.RESULT, MetricTags.GRANTED));
    waitRejected =
        recorder.timer(Metric.WAIT_TIME, with(limit, MetricTags.RESULT, MetricTags.REJECTED));
    boolean holds = type != LimitType.RATE_LIMIT;
    held = holds ? recorder.timer(Metric.HOLD_TIME, limit) : null;
    if (holds) {
      recorder.gauge(Metric.RUNNING, limit, running::get);
    }
    leasesLost = recorder.counter(Metric.LEASES_LOST, limit);
    leasesExpired = recorder.counter(Metric.LEASES_EXPIRED, limit);
  }

  /** {@code name} and {@code kind}: the tags every metric of a limit carries. */
  static Map<String, String> limitTags(LimitType type, String name) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put(MetricTags.NAME, name);
    tags.put(MetricTags.KIND, MetricTags.kind(type));
    return tags;
  }

  /** {@code tags} and one more. */
  static Map<String, String> with(Map<String, String> tags, String key, String value) {
    Map<String, String> more = new LinkedHashMap<>(tags);
    more.put(key, value);
    return more;
  }

  private static MetricsRecorder.CounterHandle calls(
      MetricsRecorder recorder, Map<String, String> limit, String result, String reason) {
    return recorder.counter(
        Metric.CALLS, with(with(limit, MetricTags.RESULT, result), MetricTags.REASON, reason));
  }
}
