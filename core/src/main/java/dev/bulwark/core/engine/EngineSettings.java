package dev.bulwark.core.engine;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.SettingReader;
import dev.bulwark.core.local.LocalStoreProvider;
import java.util.ArrayList;
import java.util.List;
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

  /** What is wrong with the engine-wide settings, one message per key; none when it starts. */
  public static List<String> problems(ConfigLookup config) {
    SettingReader read = SettingReader.of(config);
    List<Runnable> checks =
        List.of(
            () -> read.bool(ENABLED),
            () -> read.value(FAILURE_POLICY, FailurePolicy::parse),
            () -> read.integer(BATCH_MAX_SIZE, 1, MAX_BATCH_MAX_SIZE),
            () -> read.value(RELEASE, EngineSettings::postsReleases));
    List<String> problems = new ArrayList<>();
    for (Runnable check : checks) {
      try {
        check.run();
      } catch (InvalidDefinitionException e) {
        problems.add(e.getMessage());
      }
    }
    return problems;
  }

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
