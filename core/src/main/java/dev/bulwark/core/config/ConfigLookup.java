package dev.bulwark.core.config;

import java.util.Map;
import java.util.Optional;

/** Where definitions read their overrides: MicroProfile Config in a container, a map in tests. */
@FunctionalInterface
public interface ConfigLookup {

  Optional<String> get(String key);

  static ConfigLookup of(Map<String, String> values) {
    return key -> Optional.ofNullable(values.get(key));
  }

  static ConfigLookup empty() {
    return key -> Optional.empty();
  }
}
