package dev.bulwark.metrics.mp;

import dev.bulwark.event.LimitType;
import dev.bulwark.event.RejectionReason;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/** The metrics of one limit, registered once when its first event arrives. */
final class MpLimitMetrics {

  final Counter granted;
  final Counter passedThrough;
  final Map<RejectionReason, Counter> rejected = new EnumMap<>(RejectionReason.class);
  final Timer waitGranted;
  final Timer waitRejected;
  final Timer held;
  final AtomicInteger running = new AtomicInteger();
  final Counter leasesLost;
  final Counter leasesExpired;

  MpLimitMetrics(MetricRegistry registry, LimitType type, String name) {
    Tag nameTag = new Tag("name", name);
    Tag kindTag = new Tag("kind", kind(type));
    granted = calls(registry, nameTag, kindTag, "granted", "none");
    passedThrough = calls(registry, nameTag, kindTag, "passed-through", "none");
    for (RejectionReason reason : RejectionReason.values()) {
      rejected.put(
          reason,
          calls(
              registry,
              nameTag,
              kindTag,
              "rejected",
              reason.name().toLowerCase(Locale.ROOT).replace('_', '-')));
    }
    waitGranted =
        registry.timer(MpMetricNames.WAIT_TIME, nameTag, kindTag, new Tag("result", "granted"));
    waitRejected =
        registry.timer(MpMetricNames.WAIT_TIME, nameTag, kindTag, new Tag("result", "rejected"));
    held =
        type == LimitType.RATE_LIMIT
            ? null
            : registry.timer(MpMetricNames.HOLD_TIME, nameTag, kindTag);
    if (type != LimitType.RATE_LIMIT) {
      registry.gauge(MpMetricNames.RUNNING, running, AtomicInteger::get, nameTag, kindTag);
    }
    leasesLost = registry.counter(MpMetricNames.LEASES_LOST, nameTag, kindTag);
    leasesExpired = registry.counter(MpMetricNames.LEASES_EXPIRED, nameTag, kindTag);
  }

  static String kind(LimitType type) {
    return type.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static Counter calls(
      MetricRegistry registry, Tag name, Tag kind, String result, String reason) {
    return registry.counter(
        MpMetricNames.CALLS, name, kind, new Tag("result", result), new Tag("reason", reason));
  }
}
