package dev.bulwark.metrics.micrometer;

import static dev.bulwark.metrics.micrometer.MeterNames.TAG_KIND;
import static dev.bulwark.metrics.micrometer.MeterNames.TAG_NAME;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.RateLimiter;
import dev.bulwark.event.LimitType;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Cluster-wide gauges of one limit, read from the store: a scrape that reads several of them costs
 * one store read, since a snapshot is reused for {@link #FRESH_NANOS}. A store that cannot be
 * reached shows NaN (no value) rather than a stale one.
 */
final class ClusterGauges {

  /** How long one read serves every gauge of the limit: longer than a scrape, shorter than two. */
  static final long FRESH_NANOS = 1_000_000_000L;

  private ClusterGauges() {}

  static void register(MeterRegistry registry, BulkheadLimiter bulkhead) {
    Tags tags = tags(LimitType.BULKHEAD, bulkhead.definition().name());
    Fresh<BulkheadSnapshot> snapshot = new Fresh<>(bulkhead::inspect);
    gauge(registry, MeterNames.CLUSTER_HOLDERS, tags, snapshot, s -> s.holders().size());
    gauge(registry, MeterNames.CLUSTER_QUEUED, tags, snapshot, s -> s.queued());
    gauge(registry, MeterNames.CLUSTER_AVAILABLE, tags, snapshot, s -> s.available());
  }

  static void register(MeterRegistry registry, RateLimiter rateLimiter) {
    Tags tags = tags(LimitType.RATE_LIMIT, rateLimiter.definition().name());
    Fresh<RateLimitSnapshot> snapshot = new Fresh<>(rateLimiter::inspect);
    gauge(registry, MeterNames.CLUSTER_AVAILABLE, tags, snapshot, s -> s.available());
  }

  private static Tags tags(LimitType type, String name) {
    return Tags.of(TAG_NAME, name, TAG_KIND, MeterNames.kind(type));
  }

  private static <S> void gauge(
      MeterRegistry registry, String name, Tags tags, Fresh<S> snapshot, ToDoubleFunction<S> f) {
    Gauge.builder(name, snapshot, fresh -> fresh.apply(f))
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  /** The last snapshot while it is fresh, else a new read; NaN for a read that failed. */
  private static final class Fresh<S> {
    private final Supplier<S> read;
    private S last;
    private long readAt;
    private boolean failed;

    Fresh(Supplier<S> read) {
      this.read = read;
    }

    synchronized double apply(ToDoubleFunction<S> f) {
      long now = System.nanoTime();
      if (readAt == 0 || now - readAt > FRESH_NANOS) {
        readAt = now;
        try {
          last = read.get();
          failed = false;
        } catch (RuntimeException e) { // store unreachable: no value instead of a stale one
          failed = true;
        }
      }
      return failed ? Double.NaN : f.applyAsDouble(last);
    }
  }
}
