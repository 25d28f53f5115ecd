package dev.bulwark.fttck;

import java.util.Locale;

/**
 * Which of the module's three runs this JVM is: the surefire execution sets {@code bulwark-tck.run}
 * (outside {@code bulwark.}, whose keys the start checks: one nothing reads stops it) to its id.
 * The plain run has no Bulwark class on its class path at all; the bridge runs add Bulwark to each
 * deployment and differ only in the store.
 */
enum TckRun {
  /** SmallRye Fault Tolerance alone: the baseline every bridge run is compared with. */
  PLAIN,
  /** Every {@code @Bulkhead} cluster-wide on the Redis store. */
  BRIDGE_REDIS,
  /** Every {@code @Bulkhead} cluster-wide on the JPA store (H2 in memory). */
  BRIDGE_JPA;

  static final String PROPERTY = "bulwark-tck.run";

  /**
   * The run this JVM was started for; a missing or unknown value fails with the property's name.
   */
  static TckRun current() {
    String value = System.getProperty(PROPERTY, "");
    for (TckRun run : values()) {
      if (run.id().equals(value)) {
        return run;
      }
    }
    throw new IllegalStateException(
        "System property "
            + PROPERTY
            + "='"
            + value
            + "' names no run of this module; expected plain, bridge-redis or bridge-jpa"
            + " (run the module through Maven, which sets it per surefire execution)");
  }

  /** The surefire execution id of this run. */
  String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  boolean bridged() {
    return this != PLAIN;
  }
}
