package dev.bulwark.quarkus.config;

import java.util.Optional;

/** How a limit's store operations go in batches, {@code bulwark.batch.*}. */
public interface BatchConfig {

  /** The most operations of one limit (one lock key) that one store call carries; 1 to 1000. */
  Optional<String> maxSize();
}
