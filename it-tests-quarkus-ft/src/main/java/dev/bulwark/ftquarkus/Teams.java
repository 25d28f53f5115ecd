package dev.bulwark.ftquarkus;

import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * Method-level bulkheads that two beans inherit ({@link FirstTeam}, {@link SecondTeam}), on two
 * overloads: FT keeps one bulkhead per bean class and method, four here.
 */
public abstract class Teams {

  @Bulkhead(3)
  public String work(Gate gate) {
    gate.pass();
    return "worked";
  }

  @Bulkhead(3)
  public String work(Gate gate, String task) {
    gate.pass();
    return task;
  }
}
