package dev.bulwark.quarkus.config;

import java.util.Optional;

/** The keys of one lock, {@code bulwark.lock.<name>.*}. */
public interface LockConfig {

  /** How long a caller waits for the lock. */
  Optional<String> waitingTime();

  /** After how long a crashed holder's lock is reclaimed. */
  Optional<String> lease();

  /** {@code false}: a pass-through. */
  Optional<String> enabled();
}
