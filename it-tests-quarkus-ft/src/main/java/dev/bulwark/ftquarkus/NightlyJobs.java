package dev.bulwark.ftquarkus;

import jakarta.enterprise.context.ApplicationScoped;

/** Inherits its class-level {@code @Bulkhead}; no config makes it cluster-wide. */
@ApplicationScoped
public class NightlyJobs extends BaseJobs {

  public String own(Gate gate) {
    gate.pass();
    return "own";
  }
}
