package dev.bulwark.fttck;

import io.smallrye.metrics.MetricRegistries;
import org.jboss.arquillian.core.api.annotation.Observes;
import org.jboss.arquillian.test.spi.event.suite.BeforeClass;

/**
 * Empties SmallRye Metrics' registries before each test class. MicroProfile FT registers its
 * metrics in the base registry, which outlives a deployment in one JVM, while the TCK's metric
 * tests expect to see only what their own deployment recorded.
 */
public class MetricRegistriesReset {

  public void beforeTestClass(@Observes BeforeClass event) {
    MetricRegistries.dropAll();
  }
}
