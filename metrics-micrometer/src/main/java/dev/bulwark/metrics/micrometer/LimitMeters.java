package dev.bulwark.metrics.micrometer;

import static dev.bulwark.metrics.micrometer.MeterNames.GRANTED;
import static dev.bulwark.metrics.micrometer.MeterNames.REJECTED;
import static dev.bulwark.metrics.micrometer.MeterNames.TAG_KIND;
import static dev.bulwark.metrics.micrometer.MeterNames.TAG_NAME;
import static dev.bulwark.metrics.micrometer.MeterNames.TAG_REASON;
import static dev.bulwark.metrics.micrometer.MeterNames.TAG_RESULT;

import dev.bulwark.event.LimitType;
import dev.bulwark.event.RejectionReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The meters of one limit, registered once when its first event arrives, so an event costs a map
 * lookup and an increment.
 */
final class LimitMeters {

  private static final String WAITED = "From the request to the grant or the rejection";
  private static final Duration SHORTEST_BUCKET = Duration.ofMillis(1);
  private static final Duration LONGEST_BUCKET = Duration.ofMinutes(5);

  final Counter granted;
  final Counter passedThrough;
  final Map<RejectionReason, Counter> rejected = new EnumMap<>(RejectionReason.class);
  final Timer waitGranted;
  final Timer waitRejected;
  final Timer held;
  final AtomicInteger running = new AtomicInteger();
  final Counter leasesLost;
  final Counter leasesExpired;

  LimitMeters(MeterRegistry registry, LimitType type, String name) {
    Tags limit = Tags.of(TAG_NAME, name, TAG_KIND, MeterNames.kind(type));
    granted = calls(registry, limit, GRANTED, MeterNames.NO_REASON);
    passedThrough = calls(registry, limit, MeterNames.PASSED_THROUGH, MeterNames.NO_REASON);
    for (RejectionReason reason : RejectionReason.values()) {
      rejected.put(reason, calls(registry, limit, REJECTED, MeterNames.reason(reason)));
    }
    waitGranted = timer(registry, MeterNames.WAIT_TIME, WAITED, limit.and(TAG_RESULT, GRANTED));
    waitRejected = timer(registry, MeterNames.WAIT_TIME, WAITED, limit.and(TAG_RESULT, REJECTED));
    held =
        type == LimitType.RATE_LIMIT
            ? null
            : timer(registry, MeterNames.HOLD_TIME, "From the grant to the release", limit);
    if (type != LimitType.RATE_LIMIT) {
      Gauge.builder(MeterNames.RUNNING, running, AtomicInteger::get)
          .description("Calls of this JVM that hold a permit or lock now")
          .tags(limit)
          .strongReference(true)
          .register(registry);
    }
    leasesLost =
        Counter.builder(MeterNames.LEASES_LOST)
            .description("Running calls whose lease the store no longer knew")
            .tags(limit)
            .register(registry);
    leasesExpired =
        Counter.builder(MeterNames.LEASES_EXPIRED)
            .description("Releases of grants whose lease had run out before their call ended")
            .tags(limit)
            .register(registry);
  }

  private static Counter calls(MeterRegistry registry, Tags limit, String result, String reason) {
    return Counter.builder(MeterNames.CALLS)
        .description("Calls that asked a Bulwark limit, by result")
        .tags(limit)
        .tags(TAG_RESULT, result, TAG_REASON, reason)
        .register(registry);
  }

  private static Timer timer(MeterRegistry registry, String name, String description, Tags tags) {
    return Timer.builder(name)
        .description(description)
        .tags(tags)
        .publishPercentileHistogram()
        .minimumExpectedValue(SHORTEST_BUCKET)
        .maximumExpectedValue(LONGEST_BUCKET)
        .register(registry);
  }
}
