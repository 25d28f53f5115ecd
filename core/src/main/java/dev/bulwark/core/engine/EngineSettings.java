package dev.bulwark.core.engine;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.SettingReader;
import dev.bulwark.core.local.LocalStoreProvider;
import java.util.Locale;

/** The engine-wide switches: {@code bulwark.enabled}, {@code bulwark.store}, failure policy. */
public record EngineSettings(boolean enabled, String storeId, FailurePolicy failurePolicy) {

  public static final String ENABLED = "bulwark.enabled";
  public static final String STORE = "bulwark.store";
  public static final String FAILURE_POLICY = "bulwark.failure-policy";

  public static EngineSettings from(ConfigLookup config) {
    SettingReader read = SettingReader.of(config);
    return new EngineSettings(
        read.bool(ENABLED).orElse(true),
        read.text(STORE).orElse(LocalStoreProvider.ID).toLowerCase(Locale.ROOT),
        read.value(FAILURE_POLICY, FailurePolicy::parse).orElse(FailurePolicy.FAIL_CLOSED));
  }
}
