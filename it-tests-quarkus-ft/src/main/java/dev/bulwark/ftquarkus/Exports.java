package dev.bulwark.ftquarkus;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * A class-level MicroProfile FT bulkhead: config makes the class cluster-wide, except {@code
 * export}, which a method key keeps per JVM.
 */
@ApplicationScoped
@Bulkhead(12)
public class Exports {

  public String archive(Gate gate) {
    gate.pass();
    return "archived";
  }

  public String export(Gate gate) {
    gate.pass();
    return "exported";
  }
}
