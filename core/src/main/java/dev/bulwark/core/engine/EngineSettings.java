package dev.bulwark.core.engine;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.local.LocalStoreProvider;
import java.util.Locale;

/** The engine-wide switches: {@code bulwark.enabled}, {@code bulwark.store}, failure policy. */
public record EngineSettings(boolean enabled, String storeId, FailurePolicy failurePolicy) {

  public static final String ENABLED = "bulwark.enabled";
  public static final String STORE = "bulwark.store";
  public static final String FAILURE_POLICY = "bulwark.failure-policy";

  public static EngineSettings from(ConfigLookup config) {
    String enabled = config.get(ENABLED).map(String::trim).orElse("true").toLowerCase(Locale.ROOT);
    if (!enabled.equals("true") && !enabled.equals("false")) {
      throw new InvalidDefinitionException(
          "Invalid config key '" + ENABLED + "': '" + enabled + "' is not true or false");
    }
    String store =
        config.get(STORE).map(String::trim).orElse(LocalStoreProvider.ID).toLowerCase(Locale.ROOT);
    FailurePolicy policy;
    try {
      policy =
          config.get(FAILURE_POLICY).map(FailurePolicy::parse).orElse(FailurePolicy.FAIL_CLOSED);
    } catch (IllegalArgumentException e) {
      throw new InvalidDefinitionException(
          "Invalid config key '" + FAILURE_POLICY + "': " + e.getMessage(), e);
    }
    return new EngineSettings(Boolean.parseBoolean(enabled), store, policy);
  }
}
