package dev.bulwark.quarkus.deployment;

import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.ExcludeDependencyBuildItem;

/**
 * Bulwark's optional modules by presence: the extension brings the readiness check, the meters and
 * the JPA store, and each module's beans take part only where the application has the Quarkus
 * extension it needs (their APIs come with it). Otherwise the module is left out of the
 * application's index, not only out of the container: a build-compatible extension that looks at
 * every class (the FT bridge's) must not meet a class whose annotations cannot be resolved. Its
 * classes stay on the class path, so the JPA store is still found by {@code bulwark.store=jpa}.
 */
class OperationsProcessor {

  static final String GROUP = "dev.bulwark";
  static final String HEALTH = "bulwark-health";
  static final String MICROMETER = "bulwark-metrics-micrometer";
  static final String JPA = "bulwark-jpa";

  /**
   * quarkus-micrometer provides the metrics capability, as SmallRye Metrics did: tell them apart.
   */
  static final String MICROMETER_API = "io.micrometer.core.instrument.MeterRegistry";

  @BuildStep
  void byPresence(Capabilities capabilities, BuildProducer<ExcludeDependencyBuildItem> excluded) {
    if (!capabilities.isPresent(Capability.SMALLRYE_HEALTH)) {
      excluded.produce(new ExcludeDependencyBuildItem(GROUP, HEALTH));
    }
    if (!capabilities.isPresent(Capability.METRICS)
        || !QuarkusClassLoader.isClassPresentAtRuntime(MICROMETER_API)) {
      excluded.produce(new ExcludeDependencyBuildItem(GROUP, MICROMETER));
    }
    if (!capabilities.isPresent(Capability.HIBERNATE_ORM)) {
      excluded.produce(new ExcludeDependencyBuildItem(GROUP, JPA));
    }
  }
}
