package dev.bulwark.core.engine;

import dev.bulwark.RateLimitExceededException;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;

/** One rate limit, built once per name: the entry to its chain. */
public final class RateLimiter {

  private final RateLimitDefinition definition;
  private final RateSpec spec;
  private final LimitStep chain;
  private final LimitEvents events;
  private final RateStore store;
  private final long waitNanos;

  RateLimiter(
      RateLimitDefinition definition,
      RateSpec spec,
      LimitStep chain,
      LimitEvents events,
      RateStore store) {
    this.definition = definition;
    this.spec = spec;
    this.chain = chain;
    this.events = events;
    this.store = store;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public RateLimitDefinition definition() {
    return definition;
  }

  /** The permits available now in the store (every JVM that shares it); takes nothing. */
  public RateLimitSnapshot inspect() {
    return Inspection.read(events, () -> store.inspect(spec));
  }

  RateSpec spec() {
    return spec;
  }

  public LimitStats stats() {
    return events.stats();
  }

  /** Takes a permit, waiting up to the definition's waiting time for a reserved slot. */
  public void acquire() {
    chain.acquire("", null, waitNanos);
  }

  /** Takes a permit, waiting up to {@code maxWaitNanos} (a method's own waiting time). */
  public void acquire(long maxWaitNanos) {
    chain.acquire("", null, maxWaitNanos);
  }

  /** Takes a permit only if one is free now. */
  public boolean tryAcquire() {
    try {
      chain.acquire("", null, 0);
      return true;
    } catch (RateLimitExceededException e) {
      return false;
    }
  }
}
