package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigKeys;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.EngineSettings;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * What is wrong with the application's {@code bulwark.*} keys themselves (a key nobody reads, a bad
 * engine-wide value), reported with the limits' problems in one failure, so that a start shows
 * every mistake rather than the first.
 */
final class SettingProblems {

  private SettingProblems() {}

  static List<String> current() {
    ConfigLookup config = MpConfigLookup.current();
    List<String> problems =
        new ArrayList<>(ConfigKeys.problems(ConfigProvider.getConfig().getPropertyNames(), config));
    problems.addAll(EngineSettings.problems(config));
    return problems;
  }
}
