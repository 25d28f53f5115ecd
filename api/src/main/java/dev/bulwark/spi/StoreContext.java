package dev.bulwark.spi;

import java.util.Optional;

/** What the engine gives a store when it opens it. */
public interface StoreContext {

  /** A configuration value (MicroProfile Config when running in a container). */
  Optional<String> config(String key);

  /** Where the store reports hand-overs to queued requests. */
  GrantListener grantListener();
}
