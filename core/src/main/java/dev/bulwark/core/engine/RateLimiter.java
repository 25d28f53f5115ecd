package dev.bulwark.core.engine;

import dev.bulwark.RateLimitExceededException;
import dev.bulwark.core.config.Durations;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * One rate limit: a single reservation in the store, then, if the reserved slot lies ahead, a sleep
 * until it starts. The reservation is made before sleeping, so waiting costs no second round trip
 * and callers are served in the order they reserved.
 */
public final class RateLimiter {

  private final RateLimitDefinition definition;
  private final RateSpec spec;
  private final RateStore store;
  private final StoreAccess access;
  private final RateLimiter fallback;
  private final long waitNanos;
  private final LimitStats stats = new LimitStats();

  RateLimiter(RateLimitDefinition definition, StoreAccess access, RateLimiter fallback) {
    this.definition = definition;
    this.spec =
        new RateSpec(
            definition.name(),
            definition.type(),
            definition.value(),
            definition.window().toNanos());
    this.store = access.store().rates();
    this.access = access;
    this.fallback = fallback;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public RateLimitDefinition definition() {
    return definition;
  }

  RateSpec spec() {
    return spec;
  }

  public LimitStats stats() {
    return stats;
  }

  /** Takes a permit, waiting up to the definition's waiting time for a reserved slot. */
  public void acquire() {
    acquire(waitNanos);
  }

  /** Takes a permit only if one is free now. */
  public boolean tryAcquire() {
    try {
      acquire(0);
      return true;
    } catch (RateLimitExceededException e) {
      return false;
    }
  }

  private void acquire(long maxWaitNanos) {
    RateDecision decision;
    try {
      decision = store.reserve(spec, maxWaitNanos);
    } catch (StoreException e) {
      if (access.fallBackLocally(e, stats, definition.name(), "Rate limit '" + spec.name() + "'")) {
        fallback.acquire(maxWaitNanos);
      }
      return;
    }
    if (!decision.granted()) {
      stats.onRejected();
      throw new RateLimitExceededException(
          definition.name(),
          Duration.ofNanos(decision.delayNanos()),
          "Rate limit '"
              + definition.name()
              + "' of "
              + definition.value()
              + " per "
              + Durations.format(definition.window())
              + " exceeded; next permit in "
              + Duration.ofNanos(decision.delayNanos()).toMillis()
              + " ms");
    }
    if (decision.delayNanos() > 0) {
      stats.onWaited();
      if (!sleepUntilSlot(decision.delayNanos())) {
        stats.onRejected();
        throw new RateLimitExceededException(
            definition.name(),
            Duration.ZERO,
            "Interrupted while waiting for a reserved slot of rate limit '"
                + definition.name()
                + "'");
      }
    }
    stats.onGranted();
  }

  /**
   * Sleeps until the reserved slot starts. An interrupt gives the slot up (it stays spent) rather
   * than start the call early, which would overshoot the limit.
   *
   * @return false when interrupted; the interrupt flag is set again
   */
  private static boolean sleepUntilSlot(long delayNanos) {
    long deadline = System.nanoTime() + delayNanos;
    long remaining;
    while ((remaining = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(remaining);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
