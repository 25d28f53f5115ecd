package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigLookup;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** MicroProfile Config as the engine's config source. */
final class MpConfigLookup implements ConfigLookup {

  private final Config config;

  private MpConfigLookup(Config config) {
    this.config = config;
  }

  static ConfigLookup current() {
    return new MpConfigLookup(ConfigProvider.getConfig());
  }

  @Override
  public Optional<String> get(String key) {
    return config.getOptionalValue(key, String.class);
  }
}
