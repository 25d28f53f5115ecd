package dev.bulwark.quarkus.config;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;

/**
 * The {@code bulwark.*} keys that Quarkus reads while the application builds: Quarkus REST
 * registers exception mappers at build time. A value set differently when the application runs is
 * reported by Quarkus, not silently ignored.
 */
@ConfigMapping(prefix = "bulwark")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface BulwarkBuildTimeConfig {

  /** The HTTP answers to rejections. */
  HttpConfig http();
}
