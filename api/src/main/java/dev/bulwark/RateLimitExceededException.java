package dev.bulwark;

import java.time.Duration;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/** No permit of a {@link DistributedRateLimit} within the caller's waiting time. */
public class RateLimitExceededException extends FaultToleranceException {
  private static final long serialVersionUID = 1L;

  private final String limitName;
  private final Duration retryAfter;

  public RateLimitExceededException(String limitName, Duration retryAfter, String message) {
    super(message);
    this.limitName = limitName;
    this.retryAfter = retryAfter;
  }

  public String getLimitName() {
    return limitName;
  }

  /** How long from the rejection until the next permit frees up (by the store's clock). */
  public Duration getRetryAfter() {
    return retryAfter;
  }
}
