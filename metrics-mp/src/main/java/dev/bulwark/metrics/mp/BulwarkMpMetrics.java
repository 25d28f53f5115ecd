package dev.bulwark.metrics.mp;

import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.LimitStats;
import dev.bulwark.core.metrics.PerLimit;
import dev.bulwark.core.registry.LimitRegistry;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.LeaseLost;
import dev.bulwark.event.LimitEvent;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.PassedThrough;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.Released;
import dev.bulwark.event.StoreOutageStarted;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Records Bulwark into a MicroProfile Metrics 5.1 {@link MetricRegistry}: every event as it happens
 * and, once {@link #bind bound} to the engine, each limit's value and store failures and the
 * store's availability. Names: {@link MpMetricNames}.
 */
public final class BulwarkMpMetrics implements BulwarkListener {

  private final MetricRegistry registry;
  private final PerLimit<MpLimitMetrics> limits = new PerLimit<>(this::firstSeen);
  private final Set<String> defined = ConcurrentHashMap.newKeySet();
  private volatile BulwarkEngine engine;
  private volatile Counter outages;

  public BulwarkMpMetrics(MetricRegistry registry) {
    this.registry = registry;
  }

  /** Registers the store's metrics and, per limit, its value and store failures; once. */
  public void bind(BulwarkEngine started) {
    this.engine = started;
    Tag store = new Tag("store", started.settings().storeId());
    registry.gauge(
        MpMetricNames.STORE_AVAILABLE, started, e -> e.outage().isEmpty() ? 1 : 0, store);
    outages = registry.counter(MpMetricNames.STORE_OUTAGES, store);
    for (LimitRegistry.Limit limit : started.registry().limits()) {
      registerDefinition(started, limit);
    }
  }

  @Override
  public void on(BulwarkEvent event) {
    if (event instanceof Granted g) {
      MpLimitMetrics metrics = metrics(g);
      metrics.granted.inc();
      metrics.waitGranted.update(g.waited());
      if (g.type() != LimitType.RATE_LIMIT) {
        metrics.running.incrementAndGet();
      }
    } else if (event instanceof Released r) {
      MpLimitMetrics metrics = metrics(r);
      metrics.running.decrementAndGet();
      metrics.held.update(r.held());
    } else if (event instanceof Rejected r) {
      MpLimitMetrics metrics = metrics(r);
      metrics.rejected.get(r.reason()).inc();
      metrics.waitRejected.update(r.waited());
    } else if (event instanceof PassedThrough p) {
      metrics(p).passedThrough.inc();
    } else if (event instanceof LeaseLost l) {
      metrics(l).leasesLost.inc();
    } else if (event instanceof LeaseExpiredAtRelease l) {
      metrics(l).leasesExpired.inc();
    } else if (event instanceof StoreOutageStarted && outages != null) {
      outages.inc(); // the availability gauge reads the engine's state, ends included
    }
  }

  private MpLimitMetrics metrics(LimitEvent event) {
    return limits.of(event);
  }

  private MpLimitMetrics firstSeen(LimitType type, String name) {
    MpLimitMetrics metrics = new MpLimitMetrics(registry, type, name);
    BulwarkEngine bound = engine;
    if (bound != null) {
      PerLimit.built(bound, type, name).ifPresent(l -> registerDefinition(bound, l));
    }
    return metrics;
  }

  private void registerDefinition(BulwarkEngine started, LimitRegistry.Limit limit) {
    LimitDefinition definition = limit.definition();
    if (!defined.add(definition.kind() + ":" + definition.name())) {
      return;
    }
    Tag name = new Tag("name", definition.name());
    Tag kind = new Tag("kind", MpLimitMetrics.kind(definition.kind().type()));
    int value =
        definition instanceof BulkheadDefinition b
            ? b.value()
            : definition instanceof RateLimitDefinition r ? r.value() : 0;
    if (value > 0) {
      registry.gauge(MpMetricNames.LIMIT, () -> value, name, kind);
    }
    registry.gauge(
        MpMetricNames.STORE_FAILURES,
        limit.stats(),
        LimitStats::storeFailures,
        name,
        kind,
        new Tag("store", started.settings().storeId()),
        new Tag(
            "policy",
            started.settings().failurePolicy().name().toLowerCase(Locale.ROOT).replace('_', '-')));
  }
}
