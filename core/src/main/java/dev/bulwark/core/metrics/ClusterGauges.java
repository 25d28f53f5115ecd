package dev.bulwark.core.metrics;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.RateLimiter;
import dev.bulwark.event.LimitType;
import java.util.Map;
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

  static void register(MetricsRecorder recorder, BulkheadLimiter bulkhead) {
    Map<String, String> tags =
        LimitMetrics.limitTags(LimitType.BULKHEAD, bulkhead.definition().name());
    Fresh<BulkheadSnapshot> snapshot = new Fresh<>(bulkhead::inspect);
    recorder.gauge(Metric.CLUSTER_HOLDERS, tags, () -> snapshot.apply(s -> s.holders().size()));
    recorder.gauge(Metric.CLUSTER_QUEUED, tags, () -> snapshot.apply(s -> s.queued()));
    recorder.gauge(Metric.CLUSTER_AVAILABLE, tags, () -> snapshot.apply(s -> s.available()));
  }

  static void register(MetricsRecorder recorder, RateLimiter rateLimiter) {
    Map<String, String> tags =
        LimitMetrics.limitTags(LimitType.RATE_LIMIT, rateLimiter.definition().name());
    Fresh<RateLimitSnapshot> snapshot = new Fresh<>(rateLimiter::inspect);
    recorder.gauge(Metric.CLUSTER_AVAILABLE, tags, () -> snapshot.apply(s -> s.available()));
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
