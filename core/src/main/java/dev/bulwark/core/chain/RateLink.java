package dev.bulwark.core.chain;

import dev.bulwark.LockPermit;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.RateLimitType;
import dev.bulwark.core.batch.BatchQueue;
import dev.bulwark.core.batch.Batches;
import dev.bulwark.core.config.Durations;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.waiting.AsyncScheduler;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * The store link of a rate limit: a single reservation in the store, then, if the reserved slot
 * lies ahead, a sleep until it starts (asynchronously: a timer). The reservation is made before
 * sleeping, so waiting costs no second round trip and callers are served in the order they
 * reserved.
 *
 * <p>A {@code SMOOTH} or {@code FIXED} limit that the store found without a permit until some
 * instant has none before it, whatever any JVM does meanwhile: a reservation never gives a slot
 * back. Until then this JVM's calls that cannot wait that long are rejected here, with the time
 * that is left, and cost the store nothing; a call that may wait long enough still reserves its
 * slot in the store. ({@code ROLLING} is left out: a redefinition with more permits reopens its
 * window at once.)
 */
final class RateLink implements LimitLink {

  private final RateLimitDefinition definition;
  private final RateSpec spec;
  private final RateStore store;
  private final LimitEvents events;
  private final AsyncScheduler async;
  private final boolean rejectionsLast;

  /** The limit's batch queue when the store batches (one reservation per caller), else null. */
  private final BatchQueue<Long, RateDecision> queue;

  /** Until when ({@link System#nanoTime}) the store said no permit comes; null when unknown. */
  private volatile Closed closed;

  /** A rejection's horizon, on this JVM's monotonic clock. */
  private record Closed(long untilNanos) {}

  /**
   * The horizon is shortened by its length shifted right this far (about 0.1 %), so that a store
   * clock running faster than this JVM's (NTP slews by at most 0.05 %) never sees this JVM reject a
   * call it would have granted.
   */
  private static final int CLOCK_RATE_SHIFT = 10;

  RateLink(
      RateLimitDefinition definition,
      RateSpec spec,
      RateStore store,
      LimitEvents events,
      AsyncScheduler async,
      Batches batches) {
    this.definition = definition;
    this.spec = spec;
    this.store = store;
    this.events = events;
    this.async = async;
    this.rejectionsLast = definition.type() != RateLimitType.ROLLING;
    this.queue = batches == null ? null : batches.queue(this::reserveEach);
  }

  private CompletionStage<List<RateDecision>> reserveEach(List<Long> maxWaits) {
    long[] each = new long[maxWaits.size()];
    for (int i = 0; i < each.length; i++) {
      each[i] = maxWaits.get(i);
    }
    return store.reserveEachAsync(spec, each);
  }

  @Override
  public LockPermit acquire(LimitCall call) {
    RateDecision decision = reserve(call.maxWaitNanos());
    if (!decision.granted()) {
      throw rejection(decision);
    }
    if (decision.delayNanos() > 0) {
      events.queued();
      if (!sleepUntilSlot(decision.delayNanos())) {
        throw interrupted();
      }
    }
    return NoPermit.INSTANCE;
  }

  /**
   * Reserves on the calling thread; a slot that lies ahead completes the stage when it starts, on
   * the engine's {@link AsyncScheduler}. A caller that gives up first leaves its slot spent.
   */
  @Override
  public CompletableFuture<LockPermit> acquireAsync(LimitCall call, CompletableFuture<?> caller) {
    RateDecision decision;
    try {
      decision = reserve(call.maxWaitNanos());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (!decision.granted()) {
      return CompletableFuture.failedFuture(rejection(decision));
    }
    if (decision.delayNanos() <= 0) {
      return CompletableFuture.completedFuture(NoPermit.INSTANCE);
    }
    events.queued();
    CompletableFuture<LockPermit> slot = new CompletableFuture<>();
    async.track(slot);
    ScheduledFuture<?> start =
        async.schedule(() -> slot.complete(NoPermit.INSTANCE), decision.delayNanos());
    caller.whenComplete(
        (value, failure) -> {
          if (slot.completeExceptionally(interrupted())) {
            start.cancel(false);
          }
        });
    return slot;
  }

  /** The store's decision, or the rejection it gave until an instant not yet reached. */
  private RateDecision reserve(long maxWaitNanos) {
    Closed known = closed;
    if (known != null) {
      long left = known.untilNanos() - System.nanoTime();
      if (left > maxWaitNanos) {
        return RateDecision.rejected(left);
      }
    }
    // the store decides after this instant, so its horizon is no earlier than this plus the
    // delay it gives, however long the call took to go and come back
    long asked = System.nanoTime();
    RateDecision decision =
        queue == null ? store.reserve(spec, maxWaitNanos) : queue.call(maxWaitNanos);
    if (!decision.granted() && rejectionsLast) {
      long delay = decision.delayNanos();
      closed = new Closed(asked + delay - (delay >>> CLOCK_RATE_SHIFT));
    }
    return decision;
  }

  private RateLimitExceededException rejection(RateDecision decision) {
    return new RateLimitExceededException(
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

  private RateLimitExceededException interrupted() {
    return new RateLimitExceededException(
        definition.name(),
        Duration.ZERO,
        "Interrupted while waiting for a reserved slot of rate limit '" + definition.name() + "'");
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
