package dev.bulwark.benchmarks;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The application's {@link MeterRegistry} bean when the benchmark measures metrics: a real registry
 * in memory, the one both Bulwark's listener and SmallRye Fault Tolerance record into.
 */
@Dependent
public class MeterRegistryProducer {

  // @Singleton, not @ApplicationScoped: MeterRegistry has no constructor a client proxy could use
  @Produces
  @Singleton
  MeterRegistry registry() {
    return new SimpleMeterRegistry();
  }

  void close(@Disposes MeterRegistry registry) {
    registry.close();
  }
}
