package dev.bulwark.core.engine;

import dev.bulwark.core.chain.LimitChains;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.lease.LeaseRenewer;
import dev.bulwark.core.waiting.AsyncScheduler;
import dev.bulwark.event.LimitType;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import java.time.Duration;

/**
 * Builds a limit from its definition: the store's spec of it, its chain, and its record in the
 * store. Each call builds a new, independent limit; the registry calls it once per kind and name.
 */
public final class LimitFactory {

  private final BulwarkStore store;
  private final LimitChains chains;
  private final AsyncScheduler async;

  /** Null when the store's leases do not expire. */
  private final LeaseRenewer renewer;

  LimitFactory(BulwarkStore store, LimitChains chains, AsyncScheduler async, LeaseRenewer renewer) {
    this.store = store;
    this.chains = chains;
    this.async = async;
    this.renewer = renewer;
  }

  public BulkheadLimiter bulkhead(BulkheadDefinition definition) {
    PermitSpec spec =
        new PermitSpec(definition.name(), definition.value(), millisAtLeastOne(definition.lease()));
    keepLeasesAlive(spec.leaseMillis());
    LimitEvents events = chains.events(LimitType.BULKHEAD, definition.name());
    BulkheadLimiter limiter =
        new BulkheadLimiter(
            definition,
            spec,
            chains.bulkhead(definition, spec, events),
            events,
            store.permits(),
            async);
    DefinitionRecorder.record(
        "bulkhead '" + spec.name() + "'", spec.definition(), () -> store.permits().define(spec));
    return limiter;
  }

  public RateLimiter rateLimiter(RateLimitDefinition definition) {
    RateSpec spec =
        new RateSpec(
            definition.name(),
            definition.type(),
            definition.value(),
            definition.window().toNanos());
    LimitEvents events = chains.events(LimitType.RATE_LIMIT, definition.name());
    RateLimiter limiter =
        new RateLimiter(
            definition,
            spec,
            chains.rateLimit(definition, spec, events),
            events,
            store.rates(),
            async);
    DefinitionRecorder.record(
        "rate limit '" + spec.name() + "'", spec.definition(), () -> store.rates().define(spec));
    return limiter;
  }

  public KeyedLock lock(LockDefinition definition) {
    LockSpec spec = new LockSpec(definition.name(), millisAtLeastOne(definition.lease()));
    keepLeasesAlive(spec.leaseMillis());
    LimitEvents events = chains.events(LimitType.LOCK, definition.name());
    return new KeyedLock(
        definition, chains.lock(definition, spec, events), events, spec, store.locks(), async);
  }

  private void keepLeasesAlive(long leaseMillis) {
    if (renewer != null) {
      renewer.tickFor(leaseMillis);
    }
  }

  /** Rounded up: a store must never see a positive duration as 0 (no lease at all). */
  private static long millisAtLeastOne(Duration duration) {
    if (duration.isZero()) {
      return 0;
    }
    long millis = duration.toMillis();
    return duration.equals(Duration.ofMillis(millis)) ? millis : millis + 1;
  }
}
