package dev.bulwark.core.chain;

import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.engine.FailurePolicy;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.local.LocalStore;
import dev.bulwark.core.outage.OutageWatch;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.LimitType;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;

/**
 * Builds each limit's chain, once per limit, in the one order every primitive shares (outermost
 * first): events (only when somebody listens), counting, failure policy (not for the local store,
 * which cannot be unreachable), the store. A lock adds re-entry and the thread's lock context
 * outside them. Adding a concern (metrics, tracing) is one more link here.
 */
public final class LimitChains {

  private final StoreAccess access;
  private final StoreAccess localAccess;
  private final FailurePolicy policy;
  private final BulwarkListener listener;
  private final OutageWatch outage;

  /**
   * @param localAccess the JVM's local store, for the {@code local} failure policy; null otherwise
   * @param listener the application's listeners as one; null when nobody listens
   */
  public LimitChains(
      StoreAccess access,
      StoreAccess localAccess,
      FailurePolicy policy,
      BulwarkListener listener,
      OutageWatch outage) {
    this.access = access;
    this.localAccess = localAccess;
    this.policy = policy;
    this.listener = listener;
    this.outage = outage;
  }

  public LimitEvents events(LimitType type, String name) {
    return new LimitEvents(type, name, listener);
  }

  public LimitLink bulkhead(BulkheadDefinition definition, PermitSpec spec, LimitEvents events) {
    LimitLink store = new PermitLink(definition, spec, access, events);
    LimitLink local =
        localAccess == null ? null : new PermitLink(definition, spec, localAccess, events);
    return observed(withPolicy(store, local, events), events);
  }

  public LimitLink rateLimit(RateLimitDefinition definition, RateSpec spec, LimitEvents events) {
    LimitLink store =
        new RateLink(
            definition, spec, access.store().rates(), events, access.async(), access.batches());
    LimitLink local =
        localAccess == null
            ? null
            : new RateLink(
                definition, spec, localAccess.store().rates(), events, localAccess.async(), null);
    return observed(withPolicy(store, local, events), events);
  }

  public LimitLink lock(LockDefinition definition, LockSpec spec, LimitEvents events) {
    LimitLink store = new LockLink(definition, spec, access, events);
    LimitLink local =
        localAccess == null ? null : new LockLink(definition, spec, localAccess, events);
    LimitLink guarded = observed(withPolicy(store, local, events), events);
    return new ReentrantLockLink(new LockContextLink(guarded), definition.name());
  }

  /**
   * The failure policy around a store link; none for the local store, which lives in this JVM and
   * cannot be unreachable.
   */
  private LimitLink withPolicy(LimitLink store, LimitLink local, LimitEvents events) {
    return access.store() instanceof LocalStore
        ? store
        : new FailurePolicyLink(store, policy, local, events, outage);
  }

  private LimitLink observed(LimitLink inner, LimitEvents events) {
    LimitLink counted = new CountingLink(inner, events);
    return events.listening() ? new EventLink(counted, events) : counted;
  }
}
