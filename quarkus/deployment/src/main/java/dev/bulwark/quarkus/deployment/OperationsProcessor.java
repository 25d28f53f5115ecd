package dev.bulwark.quarkus.deployment;

import io.quarkus.arc.deployment.ExcludedTypeBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;
import java.util.Optional;

/**
 * Bulwark's optional beans by presence: the extension brings the readiness check, the meters and
 * the JPA store's container provider, and each takes part only where the application has the
 * Quarkus extension it needs (their APIs come with it); the others are left out of the container.
 */
class OperationsProcessor {

  static final String HEALTH = "dev.bulwark.health.**";
  static final String MICROMETER = "dev.bulwark.metrics.micrometer.**";
  static final String JPA_CONTAINER = "dev.bulwark.jpa.container.**";

  @BuildStep
  void byPresence(
      Capabilities capabilities,
      Optional<MetricsCapabilityBuildItem> metrics,
      BuildProducer<ExcludedTypeBuildItem> excluded) {
    if (!capabilities.isPresent(Capability.SMALLRYE_HEALTH)) {
      excluded.produce(new ExcludedTypeBuildItem(HEALTH));
    }
    if (metrics.isEmpty() || !metrics.get().metricsSupported(MetricsFactory.MICROMETER)) {
      excluded.produce(new ExcludedTypeBuildItem(MICROMETER));
    }
    if (!capabilities.isPresent(Capability.HIBERNATE_ORM)) {
      excluded.produce(new ExcludedTypeBuildItem(JPA_CONTAINER));
    }
  }
}
