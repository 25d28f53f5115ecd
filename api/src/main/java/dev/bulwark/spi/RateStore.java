package dev.bulwark.spi;

/** The rate-limit primitive of a store: one atomic reservation against the store's clock. */
public interface RateStore {

  /**
   * Takes a permit now, or reserves the next free slot if it starts within {@code maxWaitNanos};
   * otherwise takes nothing and says when the next permit frees up.
   */
  RateDecision reserve(RateSpec spec, long maxWaitNanos);
}
