package dev.bulwark.quarkus.config;

import java.util.Optional;

/** The keys of one bulkhead, {@code bulwark.bulkhead.<name>.*}. */
public interface BulkheadConfig {

  /** Permits: how many calls run at once across the cluster. */
  Optional<String> value();

  /** How long a caller waits for a permit. */
  Optional<String> waitingTime();

  /** After how long a crashed holder's permit is reclaimed. */
  Optional<String> lease();

  /** {@code false}: a pass-through. */
  Optional<String> enabled();
}
