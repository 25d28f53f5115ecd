package dev.bulwark.spi;

import dev.bulwark.RateLimitSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The rate-limit primitive of a store: one atomic reservation against the store's clock. */
public interface RateStore {

  /**
   * Takes a permit now, or reserves the next free slot if it starts within {@code maxWaitNanos};
   * otherwise takes nothing and says when the next permit frees up.
   */
  RateDecision reserve(RateSpec spec, long maxWaitNanos);

  /**
   * Makes one reservation per element of {@code maxWaitNanos} on one rate limit, as one atomic step
   * of the store, in the given order: each gets the decision it would get sent alone in that order.
   * The default sends them one at a time.
   *
   * @return one decision per reservation, in order
   * @throws StoreException when the step failed: no decision of the batch is known
   */
  default List<RateDecision> reserveEach(RateSpec spec, long[] maxWaitNanos) {
    List<RateDecision> decisions = new ArrayList<>(maxWaitNanos.length);
    for (long maxWait : maxWaitNanos) {
      decisions.add(reserve(spec, maxWait));
    }
    return decisions;
  }

  /**
   * {@link #reserveEach} sent without holding the calling thread for the round trip, as {@link
   * PermitStore#applyAsync} says. The default reserves on the calling thread.
   */
  default CompletionStage<List<RateDecision>> reserveEachAsync(RateSpec spec, long[] maxWaitNanos) {
    try {
      return CompletableFuture.completedFuture(reserveEach(spec, maxWaitNanos));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * How many permits a call could take now, for operators; takes nothing. The default, for a store
   * that does not offer it, throws.
   *
   * @throws UnsupportedOperationException when the store cannot be inspected
   */
  default RateLimitSnapshot inspect(RateSpec spec) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot inspect rate limits");
  }

  /**
   * Records the definition this JVM enforces under {@code spec.name()}; a shared store returns
   * another JVM's differing record (type, permits or window), the default records nothing.
   */
  default Optional<String> define(RateSpec spec) {
    return Optional.empty();
  }
}
