package dev.bulwark.faulttolerance;

import dev.bulwark.RateLimitExceededException;
import io.smallrye.faulttolerance.api.RateLimitException;

/**
 * A cluster-wide rejection of a mapped SmallRye {@code @RateLimit}: SmallRye's own {@code
 * RateLimitException}, so {@code @Fallback(applyOn = RateLimitException.class)} and the like treat
 * it as they treat SmallRye's, with Bulwark's rejection (the limit's name, the retry-after) as its
 * cause. Loaded only when SmallRye FT's API is on the class path.
 */
public class ClusterRateLimitException extends RateLimitException {

  private static final long serialVersionUID = 1L;

  ClusterRateLimitException(RateLimitExceededException rejected) {
    super(rejected.getRetryAfter().toMillis(), rejected.getMessage(), rejected);
  }

  /** SmallRye's form of {@code rejected}, when it is a rate-limit rejection. */
  static RuntimeException of(RuntimeException rejected) {
    return rejected instanceof RateLimitExceededException exceeded
        ? new ClusterRateLimitException(exceeded)
        : rejected;
  }
}
