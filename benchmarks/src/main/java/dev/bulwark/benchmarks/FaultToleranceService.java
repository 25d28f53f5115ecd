package dev.bulwark.benchmarks;

import io.smallrye.faulttolerance.api.RateLimit;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/** The peer: the same method under SmallRye Fault Tolerance (synchronous, so semaphore based). */
@ApplicationScoped
public class FaultToleranceService {

  @Bulkhead(10)
  public long bulkhead(long current) {
    return current + 1;
  }

  /** So many permits per second that it never rejects: the cost of the check alone. */
  @RateLimit(value = Integer.MAX_VALUE, window = 1, windowUnit = ChronoUnit.SECONDS)
  public long rateLimit(long current) {
    return current + 1;
  }
}
