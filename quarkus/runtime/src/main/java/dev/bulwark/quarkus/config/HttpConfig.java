package dev.bulwark.quarkus.config;

import java.util.Optional;

/** How Bulwark's rejections reach HTTP clients, {@code bulwark.http.*}. */
public interface HttpConfig {

  /**
   * {@code false} leaves Bulwark's exceptions unmapped; by default each becomes its status (503, or
   * 429 for a rate limit) with an {@code application/problem+json} body. Read when the application
   * is built.
   */
  Optional<String> problemResponses();
}
