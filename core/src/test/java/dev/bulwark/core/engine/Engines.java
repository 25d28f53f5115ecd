package dev.bulwark.core.engine;

import dev.bulwark.core.config.ConfigLookup;
import java.util.Map;

/** Engines on the local store for tests. */
final class Engines {

  private Engines() {}

  static BulwarkEngine local(Map<String, String> config) {
    return BulwarkEngine.start(ConfigLookup.of(config));
  }

  static BulwarkEngine local() {
    return local(Map.of());
  }
}
