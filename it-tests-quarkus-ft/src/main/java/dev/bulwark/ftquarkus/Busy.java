package dev.bulwark.ftquarkus;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * A cluster-wide bulkhead with a fallback for a full bulkhead: a cluster rejection must reach it as
 * FT's own would, wherever FT's interceptor priority was moved.
 */
@ApplicationScoped
public class Busy {

  @Bulkhead(2)
  @Fallback(fallbackMethod = "later", applyOn = BulkheadException.class)
  public String run(Gate gate) {
    gate.pass();
    return "ran";
  }

  public String later(Gate gate) {
    return "fallback";
  }
}
