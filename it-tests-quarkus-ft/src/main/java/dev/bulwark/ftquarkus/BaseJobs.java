package dev.bulwark.ftquarkus;

import org.eclipse.microprofile.faulttolerance.Bulkhead;

/** A class-level bulkhead that subclasses inherit ({@code @Bulkhead} is {@code @Inherited}). */
@Bulkhead(12)
public abstract class BaseJobs {

  public String inherited(Gate gate) {
    gate.pass();
    return "inherited";
  }
}
