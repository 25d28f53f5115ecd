package dev.bulwark.quarkus.deployment;

import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;

/** The build steps of Bulwark's Quarkus extension. */
class BulwarkProcessor {

  static final String FEATURE = "bulwark";

  @BuildStep
  FeatureBuildItem feature() {
    return new FeatureBuildItem(FEATURE);
  }
}
