package dev.bulwark.quarkus.config;

import io.smallrye.config.WithParentName;
import java.util.Optional;

/** The keys of one rate limit, {@code bulwark.rate-limit.<name>} and {@code .<name>.*}. */
public interface RateLimitConfig {

  /** The shorthand {@code <permits>/<window>}, e.g. {@code 100/1m}. */
  @WithParentName
  Optional<String> shorthand();

  /** Permits per window. */
  Optional<String> value();

  /** The window. */
  Optional<String> window();

  /** {@code smooth}, {@code fixed} or {@code rolling}. */
  Optional<String> type();

  /** How long a caller may wait for its slot. */
  Optional<String> waitingTime();

  /** {@code false}: a pass-through. */
  Optional<String> enabled();
}
