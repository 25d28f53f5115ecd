package dev.bulwark.quarkus.deployment.devservices;

import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.IsDevServicesSupportedByLaunchMode;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.builditem.LaunchModeBuildItem;
import io.quarkus.deployment.builditem.StaticInitConfigBuilderBuildItem;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.configuration.ConfigurationException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Dev and test mode with nothing to set up: {@code bulwark.store=redis} and no Redis configured
 * gets a Redis that Bulwark finds or starts (see {@link BulwarkRedis}), handed to the application
 * as {@code bulwark.redis.url}. The JPA store needs nothing here: with no {@code bulwark.jpa.*} key
 * it works on the application's default persistence unit, whose datasource Quarkus' own Dev
 * Services provide.
 */
@BuildSteps(onlyIf = {IsDevServicesSupportedByLaunchMode.class, DevServicesConfig.Enabled.class})
public class BulwarkDevServicesProcessor {

  static final String FEATURE = "bulwark";
  static final String URL_KEY = "bulwark.redis.url";

  /** Any of these set means the user chose a Redis. */
  private static final Set<String> CONNECTION_KEYS =
      Set.of(URL_KEY, "bulwark.redis.cluster-nodes", "bulwark.redis.sentinel.master");

  private static final String REDIS_HOSTS = "quarkus.redis.hosts";

  /**
   * Quarkus hands Dev Services' values to the runtime config only; Bulwark's engine starts while
   * the application's classes are initialized (static init), so it reads them there too.
   */
  private static final String DEV_SERVICES_CONFIG =
      "io.quarkus.devservice.runtime.config.DevServicesConfigBuilder";

  @BuildStep
  void redis(
      Capabilities capabilities,
      DockerStatusBuildItem containerRuntime,
      LaunchModeBuildItem launchMode,
      BuildProducer<DevServicesResultBuildItem> services,
      BuildProducer<StaticInitConfigBuilderBuildItem> staticInitConfig) {
    Config config = ConfigProvider.getConfig();
    if (!"redis".equals(text(config, "bulwark.store"))
        || CONNECTION_KEYS.stream().anyMatch(k -> text(config, k) != null)) {
      return;
    }
    boolean redisClient =
        capabilities.isPresent(Capability.REDIS_CLIENT)
            && text(config, REDIS_HOSTS) == null
            && config
                .getOptionalValue("quarkus.redis.devservices.enabled", Boolean.class)
                .orElse(true);
    String redisServer = ExecutableOnPath.find("redis-server").map(Path::toString).orElse(null);
    // asking the container runtime can take a while: only when its answer matters
    boolean containers =
        (redisClient || redisServer == null) && ContainerRuntimeQuestion.ask(containerRuntime);
    RedisSources sources = new RedisSources(redisClient && containers, redisServer, containers);
    if (!sources.any()) {
      throw new ConfigurationException(DevServicesMessages.nothingToStart(), Set.of(URL_KEY));
    }
    if (launchMode.getLaunchMode() == LaunchMode.DEVELOPMENT) {
      // Quarkus' Dev Services console will ask about containers for this service too: answered
      // here first without Testcontainers' ERROR (see ContainerRuntimeQuestion)
      ContainerRuntimeQuestion.ask(containerRuntime);
    }
    DevServicesResultBuildItem.OwnedServiceBuilder<BulwarkRedis> service =
        DevServicesResultBuildItem.owned()
            .feature(FEATURE)
            .serviceName("redis")
            .description("Redis for Bulwark's store")
            .serviceConfig(sources)
            .startable(() -> new BulwarkRedis(sources));
    if (sources.redisDevService()) {
      service.dependsOnConfig(REDIS_HOSTS, BulwarkRedis::useRedisDevService, true);
    }
    services.produce(service.configProvider(Map.of(URL_KEY, BulwarkRedis::url)).build());
    staticInitConfig.produce(new StaticInitConfigBuilderBuildItem(DEV_SERVICES_CONFIG));
  }

  /** The key's value, trimmed; null when unset or blank. */
  private static String text(Config config, String key) {
    return config
        .getOptionalValue(key, String.class)
        .map(String::trim)
        .filter(v -> !v.isEmpty())
        .orElse(null);
  }
}
