package dev.bulwark.core.engine;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Permit;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;

/**
 * One bulkhead, built once per name: the entry to its chain. {@link #acquire()} hands back a {@link
 * Permit} whose close releases it.
 */
public final class BulkheadLimiter {

  private final BulkheadDefinition definition;
  private final PermitSpec spec;
  private final LimitStep chain;
  private final LimitEvents events;
  private final PermitStore store;
  private final long waitNanos;

  BulkheadLimiter(
      BulkheadDefinition definition,
      PermitSpec spec,
      LimitStep chain,
      LimitEvents events,
      PermitStore store) {
    this.definition = definition;
    this.spec = spec;
    this.chain = chain;
    this.events = events;
    this.store = store;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public BulkheadDefinition definition() {
    return definition;
  }

  PermitSpec spec() {
    return spec;
  }

  LimitStep chain() {
    return chain;
  }

  public LimitStats stats() {
    return events.stats();
  }

  /** Takes a permit, waiting up to the definition's waiting time. */
  public Permit acquire() {
    return chain.acquire("", null, waitNanos);
  }

  /** Takes a permit, waiting up to {@code maxWaitNanos} (a method's own waiting time). */
  public Permit acquire(long maxWaitNanos) {
    return chain.acquire("", null, maxWaitNanos);
  }

  /** Holders, queue and available permits in the store now (every JVM that shares it). */
  public BulkheadSnapshot inspect() {
    return Inspection.read(events, () -> store.inspect(spec));
  }

  /** Takes a permit only if one is free now; null otherwise. */
  public Permit tryAcquire() {
    try {
      return chain.acquire("", null, 0);
    } catch (BulkheadFullException e) {
      return null;
    }
  }
}
