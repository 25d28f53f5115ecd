package dev.bulwark.metrics.micrometer;

import static dev.bulwark.metrics.micrometer.MeterNames.TAG_KIND;
import static dev.bulwark.metrics.micrometer.MeterNames.TAG_NAME;
import static dev.bulwark.metrics.micrometer.MeterNames.TAG_POLICY;
import static dev.bulwark.metrics.micrometer.MeterNames.TAG_STORE;

import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.LimitStats;
import dev.bulwark.core.engine.RateLimiter;
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
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records Bulwark into a Micrometer {@link MeterRegistry}: every event as it happens, and, once
 * {@link #bind bound} to the engine, each limit's value and store failures and the store's state.
 * Meter names and tags: {@link MeterNames}. Outside CDI, pass an instance to {@link
 * BulwarkEngine.Builder#listeners} and call {@link #bind} once the engine started.
 */
public final class BulwarkMeters implements BulwarkListener {

  private final MeterRegistry registry;
  private final PerLimit<LimitMeters> limits = new PerLimit<>(this::firstSeen);
  private final Set<String> defined = ConcurrentHashMap.newKeySet();
  private volatile BulwarkEngine engine;
  private volatile Counter outages;

  public BulwarkMeters(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * Registers what only the engine knows: the store's availability and, for every limit built so
   * far and each one built later, its value and its store failures. Call it once per engine.
   */
  public void bind(BulwarkEngine started) {
    this.engine = started;
    String store = started.settings().storeId();
    Gauge.builder(MeterNames.STORE_AVAILABLE, started, e -> e.outage().isEmpty() ? 1 : 0)
        .description("1 while the store answers calls, 0 during an outage")
        .tag(TAG_STORE, store)
        .strongReference(true)
        .register(registry);
    outages =
        Counter.builder(MeterNames.STORE_OUTAGES)
            .description("Outages of the store, counted at their start")
            .tag(TAG_STORE, store)
            .register(registry);
    for (LimitRegistry.Limit limit : started.registry().limits()) {
      registerDefinition(started, limit);
    }
  }

  @Override
  public void on(BulwarkEvent event) {
    if (event instanceof Granted g) {
      LimitMeters meters = meters(g);
      meters.granted.increment();
      meters.waitGranted.record(g.waited());
      if (g.type() != LimitType.RATE_LIMIT) {
        meters.running.incrementAndGet();
      }
    } else if (event instanceof Released r) {
      LimitMeters meters = meters(r);
      meters.running.decrementAndGet();
      meters.held.record(r.held());
    } else if (event instanceof Rejected r) {
      LimitMeters meters = meters(r);
      meters.rejected.get(r.reason()).increment();
      meters.waitRejected.record(r.waited());
    } else if (event instanceof PassedThrough p) {
      meters(p).passedThrough.increment();
    } else if (event instanceof LeaseLost l) {
      meters(l).leasesLost.increment();
    } else if (event instanceof LeaseExpiredAtRelease l) {
      meters(l).leasesExpired.increment();
    } else if (event instanceof StoreOutageStarted && outages != null) {
      outages.increment(); // the availability gauge reads the engine's state, ends included
    }
  }

  private LimitMeters meters(LimitEvent event) {
    return limits.of(event);
  }

  /** A limit's first event: its event meters, and its engine meters when built after bind. */
  private LimitMeters firstSeen(LimitType type, String name) {
    LimitMeters meters = new LimitMeters(registry, type, name);
    BulwarkEngine bound = engine;
    if (bound != null) {
      PerLimit.built(bound, type, name).ifPresent(l -> registerDefinition(bound, l));
    }
    return meters;
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

  /** Once per limit, whether it was built before {@link #bind} or after. */
  private void registerDefinition(BulwarkEngine started, LimitRegistry.Limit limit) {
    LimitDefinition definition = limit.definition();
    if (!defined.add(definition.kind() + ":" + definition.name())) {
      return;
    }
    Tags tags =
        Tags.of(TAG_NAME, definition.name(), TAG_KIND, MeterNames.kind(definition.kind().type()));
    int value =
        definition instanceof BulkheadDefinition b
            ? b.value()
            : definition instanceof RateLimitDefinition r ? r.value() : 0;
    if (value > 0) {
      Gauge.builder(MeterNames.LIMIT, () -> value)
          .description("The limit's value: calls at once (bulkhead) or per window (rate limit)")
          .tags(tags)
          .strongReference(true)
          .register(registry);
    }
    if (definition instanceof BulkheadDefinition) {
      BulkheadLimiter bulkhead = started.registry().bulkhead(definition.name());
      if (inspectable(bulkhead::inspect)) {
        ClusterGauges.register(registry, bulkhead);
      }
    } else if (definition instanceof RateLimitDefinition) {
      RateLimiter rateLimiter = started.registry().rateLimiter(definition.name());
      if (inspectable(rateLimiter::inspect)) {
        ClusterGauges.register(registry, rateLimiter);
      }
    }
    FunctionCounter.builder(MeterNames.STORE_FAILURES, limit.stats(), LimitStats::storeFailures)
        .description("Store calls that failed; the failure policy decided what the caller got")
        .tags(tags)
        .tag(TAG_STORE, started.settings().storeId())
        .tag(
            TAG_POLICY,
            started.settings().failurePolicy().name().toLowerCase(Locale.ROOT).replace('_', '-'))
        .register(registry);
  }
}
