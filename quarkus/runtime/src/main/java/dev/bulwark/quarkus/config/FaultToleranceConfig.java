package dev.bulwark.quarkus.config;

import java.util.Optional;

/** The MicroProfile FT bridge's global keys, {@code bulwark.fault-tolerance.*}. */
public interface FaultToleranceConfig {

  /** {@code bulwark.fault-tolerance.bulkhead.*}. */
  Distributed bulkhead();

  /** {@code bulwark.fault-tolerance.rate-limit.*}. */
  Distributed rateLimit();

  /** Whether the annotations of one kind are enforced cluster-wide. */
  interface Distributed {

    /** {@code true}: every annotation of this kind is also enforced cluster-wide. */
    Optional<String> distributed();
  }
}
