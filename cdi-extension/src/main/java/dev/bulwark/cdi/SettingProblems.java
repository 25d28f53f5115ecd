package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigKeys;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.EngineSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
    Set<String> environment = System.getenv().keySet();
    for (ConfigSource source : ConfigProvider.getConfig().getConfigSources()) {
      for (String name : source.getPropertyNames()) {
        // an environment variable is anyone's (BULWARK_TEST_REDIS_URL points the tests at a
        // server), and reaches the names in a dotted form as well: only keys written as keys count
        if (!environment.contains(environmentName(name))) {
          names.add(name);
        }
      }
    }
    List<String> problems = new ArrayList<>(ConfigKeys.problems(names, config, storeKeys));
    problems.addAll(EngineSettings.problems(config));
    return problems;
  }

  /** The environment variable MicroProfile Config reads {@code name} from. */
  static String environmentName(String name) {
    return name.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
  }
}
