package dev.bulwark.ftquarkus;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/** Method-level MicroProfile FT bulkheads: config makes {@code capped} cluster-wide only. */
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
}
