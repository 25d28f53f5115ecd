package dev.bulwark.ftquarkus;

import io.smallrye.faulttolerance.api.RateLimit;
import io.smallrye.faulttolerance.api.RateLimitType;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * Method-level MicroProfile FT bulkheads and SmallRye rate limits: config makes {@code capped} and
 * {@code quote} cluster-wide only.
 */
@ApplicationScoped
public class Reports {

  @Bulkhead(5)
  public String capped(Gate gate) {
    gate.pass();
    return "capped";
  }

  /** Above the 10 of a bulkhead made from the binding's defaults, so such a fallback shows. */
  @Bulkhead(12)
  public String perJvm(Gate gate) {
    gate.pass();
    return "per JVM";
  }

  /** A rolling window: no window boundary can fall between the calls a test counts. */
  @RateLimit(value = 5, window = 1, windowUnit = ChronoUnit.MINUTES, type = RateLimitType.ROLLING)
  public String quote() {
    return "quoted";
  }

  /** Above the 100 a second of a rate limit made from the binding's defaults. */
  @RateLimit(value = 200, window = 1, windowUnit = ChronoUnit.MINUTES)
  public String localQuote() {
    return "quoted";
  }
}
