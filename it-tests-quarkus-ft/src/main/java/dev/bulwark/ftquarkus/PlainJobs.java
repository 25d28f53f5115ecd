package dev.bulwark.ftquarkus;

/**
 * A plain superclass with no fault tolerance annotation: {@link CappedJobs} inherits its method
 * under a class-level {@code @Bulkhead}, {@link UnguardedJobs} inherits it with none.
 */
public abstract class PlainJobs {

  public String run(Gate gate) {
    gate.pass();
    return "ran";
  }
}
