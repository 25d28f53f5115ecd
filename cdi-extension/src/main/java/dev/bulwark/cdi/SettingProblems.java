package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigKeys;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.EngineSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * What is wrong with the application's {@code bulwark.*} keys themselves (a key nobody reads, a bad
 * engine-wide value), reported with the limits' problems in one failure, so that a start shows
 * every mistake rather than the first.
 */
final class SettingProblems {

  private SettingProblems() {}

  /**
   * @param storeKeys the keys of the stores this runtime knows (see {@link ConfigKeys#problems})
   */
  static List<String> current(Set<String> storeKeys) {
    ConfigLookup config = MpConfigLookup.current();
    Set<String> names = new TreeSet<>();
    for (ConfigSource source : ConfigProvider.getConfig().getConfigSources()) {
      names.addAll(source.getPropertyNames());
    }
    List<String> problems = new ArrayList<>(ConfigKeys.problems(names, config, storeKeys));
    problems.addAll(EngineSettings.problems(config));
    return problems;
  }
}
