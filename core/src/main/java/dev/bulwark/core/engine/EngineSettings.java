package dev.bulwark.core.engine;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.SettingReader;
import dev.bulwark.core.local.LocalStoreProvider;
import java.util.Locale;

/**
 * The engine-wide switches: {@code bulwark.enabled}, {@code bulwark.store}, failure policy, and the
 * bound on a batch of store operations.
 */
public record EngineSettings(
    boolean enabled,
    String storeId,
    FailurePolicy failurePolicy,
    int batchMaxSize,
    boolean postsReleases) {

  public static final String ENABLED = "bulwark.enabled";
  public static final String STORE = "bulwark.store";
  public static final String FAILURE_POLICY = "bulwark.failure-policy";
  public static final String BATCH_MAX_SIZE = "bulwark.batch.max-size";
  public static final String RELEASE = "bulwark.release";

  /**
   * Large enough that the queue of a busy limit drains in few store calls, small enough that one
   * script call or transaction stays short (a Redis script blocks the server while it runs).
   */
  public static final int DEFAULT_BATCH_MAX_SIZE = 64;

  public static final int MAX_BATCH_MAX_SIZE = 1000;

  public static EngineSettings from(ConfigLookup config) {
    SettingReader read = SettingReader.of(config);
    return new EngineSettings(
        read.bool(ENABLED).orElse(true),
        read.text(STORE).orElse(LocalStoreProvider.ID).toLowerCase(Locale.ROOT),
        read.value(FAILURE_POLICY, FailurePolicy::parse).orElse(FailurePolicy.FAIL_CLOSED),
        read.integer(BATCH_MAX_SIZE, 1, MAX_BATCH_MAX_SIZE).orElse(DEFAULT_BATCH_MAX_SIZE),
        read.value(RELEASE, EngineSettings::postsReleases).orElse(false));
  }

  /** {@code awaited} (the default): a call returns once its release reached the store. */
  private static boolean postsReleases(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "awaited" -> false;
      case "posted" -> true;
      default -> throw new IllegalArgumentException("expected awaited or posted, was " + value);
    };
  }
}
