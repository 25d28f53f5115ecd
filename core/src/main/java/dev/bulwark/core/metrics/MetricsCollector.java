package dev.bulwark.core.metrics;

import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.config.SettingReader;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.Limit;
import dev.bulwark.core.engine.RateLimiter;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.LeaseLost;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.PassedThrough;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.Released;
import dev.bulwark.event.StoreOutageStarted;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns Bulwark's events and the engine's state into metrics, through a {@link MetricsRecorder} of
 * the application's metrics library: every event as it happens and, once {@link #bind bound} to the
 * engine, the store's availability and, per limit, its value, its store failures and the
 * cluster-wide gauges read from the store. Outside CDI, pass an instance to {@link
 * BulwarkEngine.Builder#listeners} and call {@link #bind} once the engine started.
 */
public final class MetricsCollector implements BulwarkListener {

  /**
   * MicroProfile Fault Tolerance's switch of its metrics; {@code false} turns Bulwark's off too, as
   * an application that turns FT's metrics off expects of everything that reports like them.
   */
  public static final String METRICS_ENABLED = "MP_Fault_Tolerance_Metrics_Enabled";

  private final MetricsRecorder recorder;
  private final PerLimit<LimitMetrics> limits = new PerLimit<>(this::firstSeen);
  private final Set<String> defined = ConcurrentHashMap.newKeySet();
  private volatile BulwarkEngine engine;
  private volatile MetricsRecorder.CounterHandle outages;

  public MetricsCollector(MetricsRecorder recorder) {
    this.recorder = recorder;
  }

  /** Whether metrics are on under {@code config}: unless {@link #METRICS_ENABLED} is false. */
  public static boolean enabled(ConfigLookup config) {
    return SettingReader.of(config).bool(METRICS_ENABLED).orElse(true);
  }

  /**
   * Registers what only the engine knows: the store's availability and, for every limit built so
   * far and each one built later, its value and its store failures. Call it once per engine.
   */
  public void bind(BulwarkEngine started) {
    this.engine = started;
    Map<String, String> store = Map.of(MetricTags.STORE, started.settings().storeId());
    recorder.gauge(Metric.STORE_AVAILABLE, store, () -> started.outage().isEmpty() ? 1 : 0);
    outages = recorder.counter(Metric.STORE_OUTAGES, store);
    for (Limit limit : started.registry().limits()) {
      registerDefinition(started, limit);
    }
  }

  @Override
  public void on(BulwarkEvent event) {
    if (event instanceof Granted g) {
      LimitMetrics metrics = limits.of(g);
      metrics.granted.increment();
      metrics.waitGranted.record(g.waited());
      if (g.type() != LimitType.RATE_LIMIT) {
        metrics.running.incrementAndGet();
      }
    } else if (event instanceof Released r) {
      LimitMetrics metrics = limits.of(r);
      metrics.running.decrementAndGet();
      metrics.held.record(r.held());
    } else if (event instanceof Rejected r) {
      LimitMetrics metrics = limits.of(r);
      metrics.rejected.get(r.reason()).increment();
      metrics.waitRejected.record(r.waited());
    } else if (event instanceof PassedThrough p) {
      limits.of(p).passedThrough.increment();
    } else if (event instanceof LeaseLost l) {
      limits.of(l).leasesLost.increment();
    } else if (event instanceof LeaseExpiredAtRelease l) {
      limits.of(l).leasesExpired.increment();
    } else if (event instanceof StoreOutageStarted && outages != null) {
      outages.increment(); // the availability gauge reads the engine's state, ends included
    }
  }

  /** A limit's first event: its event metrics, and its engine metrics when built after bind. */
  private LimitMetrics firstSeen(LimitType type, String name) {
    LimitMetrics metrics = new LimitMetrics(recorder, type, name);
    BulwarkEngine bound = engine;
    if (bound != null) {
      PerLimit.built(bound, type, name).ifPresent(l -> registerDefinition(bound, l));
    }
    return metrics;
  }

  /** Once per limit, whether it was built before {@link #bind} or after. */
  private void registerDefinition(BulwarkEngine started, Limit limit) {
    LimitDefinition definition = limit.definition();
    if (!defined.add(definition.kind() + ":" + definition.name())) {
      return;
    }
    Map<String, String> tags = LimitMetrics.limitTags(definition.kind().type(), definition.name());
    int value =
        definition instanceof BulkheadDefinition b
            ? b.value()
            : definition instanceof RateLimitDefinition r ? r.value() : 0;
    if (value > 0) {
      recorder.gauge(Metric.LIMIT, tags, () -> value);
    }
    if (definition instanceof BulkheadDefinition) {
      BulkheadLimiter bulkhead = started.registry().bulkhead(definition.name());
      if (inspectable(bulkhead::inspect)) {
        ClusterGauges.register(recorder, bulkhead);
      }
    } else if (definition instanceof RateLimitDefinition) {
      RateLimiter rateLimiter = started.registry().rateLimiter(definition.name());
      if (inspectable(rateLimiter::inspect)) {
        ClusterGauges.register(recorder, rateLimiter);
      }
    }
    Map<String, String> failures = new LinkedHashMap<>(tags);
    failures.put(MetricTags.STORE, started.settings().storeId());
    failures.put(MetricTags.POLICY, MetricTags.policy(started.settings().failurePolicy()));
    recorder.counter(Metric.STORE_FAILURES, failures, limit.stats()::storeFailures);
  }

  /** Whether the store offers an operator's view (a store without one throws on inspect). */
  private static boolean inspectable(Runnable inspect) {
    try {
      inspect.run();
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    } catch (RuntimeException e) {
      return true; // it can inspect, it just cannot be reached now
    }
  }
}
