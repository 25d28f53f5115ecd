package dev.bulwark.quarkus.deployment;

import dev.bulwark.core.config.SettingReader;
import io.quarkus.arc.deployment.BuildTimeConditionBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.resteasy.reactive.spi.ExceptionMapperBuildItem;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;

/**
 * Bulwark's HTTP answers on Quarkus REST, registered while the application builds: Quarkus REST
 * orders exception mappers by priority only among those it knows at build time, and one that a
 * {@code Feature} adds when the application starts replaces the application's own mapper of the
 * same exception. So bulwark-cdi's feature, which other Jakarta REST runtimes (RESTEasy Classic
 * included) find by its {@code @Provider}, is left out here, and its mappers are registered with
 * their priority, below the application's.
 */
class ProblemResponsesProcessor {

  static final String PACKAGE = "dev.bulwark.cdi.rest.";
  static final String FEATURE = PACKAGE + "ProblemResponsesFeature";

  /** {@code dev.bulwark.cdi.rest.ProblemResponses.ENABLED_KEY}. */
  static final String ENABLED_KEY = "bulwark.http.problem-responses";

  /** {@code dev.bulwark.cdi.rest.ProblemResponses.PRIORITY}: {@code Priorities.USER + 1000}. */
  static final int PRIORITY = 5000 + 1000;

  /** Each mapper with the exception it answers. */
  static final Map<String, String> MAPPERS =
      Map.of(
          PACKAGE + "BulkheadFullMapper", "dev.bulwark.BulkheadFullException",
          PACKAGE + "RateLimitExceededMapper", "dev.bulwark.RateLimitExceededException",
          PACKAGE + "LockTimeoutMapper", "dev.bulwark.LockTimeoutException",
          PACKAGE + "StoreUnavailableMapper", "dev.bulwark.StoreUnavailableException");

  @BuildStep
  void problemResponses(
      Capabilities capabilities,
      CombinedIndexBuildItem index,
      BuildProducer<BuildTimeConditionBuildItem> conditions,
      BuildProducer<ExceptionMapperBuildItem> mappers) {
    if (!capabilities.isPresent(Capability.REST)) {
      return;
    }
    ClassInfo feature = index.getIndex().getClassByName(DotName.createSimple(FEATURE));
    if (feature != null) {
      conditions.produce(new BuildTimeConditionBuildItem(feature, false));
    }
    if (!enabled()) {
      return;
    }
    MAPPERS.forEach(
        (mapper, exception) ->
            mappers.produce(
                new ExceptionMapperBuildItem.Builder(mapper, exception)
                    .setPriority(PRIORITY)
                    .setRegisterAsBean(false)
                    .build()));
  }

  /**
   * The switch, as the application is built (a change needs a rebuild; in dev mode a reload). A
   * value that is not a boolean fails the build, as Bulwark's other keys fail the start.
   */
  static boolean enabled() {
    Config config = ConfigProvider.getConfig();
    return SettingReader.of(key -> config.getOptionalValue(key, String.class))
        .bool(ENABLED_KEY)
        .orElse(true);
  }
}
