package dev.bulwark.spi;

import dev.bulwark.RateLimitSnapshot;
import java.util.Optional;

/** The rate-limit primitive of a store: one atomic reservation against the store's clock. */
public interface RateStore {

  /**
   * Takes a permit now, or reserves the next free slot if it starts within {@code maxWaitNanos};
   * otherwise takes nothing and says when the next permit frees up.
   */
  RateDecision reserve(RateSpec spec, long maxWaitNanos);

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
