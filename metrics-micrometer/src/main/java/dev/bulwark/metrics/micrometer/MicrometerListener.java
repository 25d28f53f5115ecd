package dev.bulwark.metrics.micrometer;

import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * Bulwark's metrics in a CDI application: records into the application's {@link MeterRegistry} bean
 * (on Quarkus, the one of {@code quarkus-micrometer}), or into Micrometer's global registry when
 * there is none. Having this module on the class path is all it takes.
 */
@ApplicationScoped
public class MicrometerListener implements BulwarkListener {

  @Inject Instance<MeterRegistry> registries;

  private BulwarkMeters meters;

  @PostConstruct
  void create() {
    meters =
        new BulwarkMeters(registries.isResolvable() ? registries.get() : Metrics.globalRegistry);
  }

  /** Binds to the engine once the application started, so the store's meters exist at once. */
  void started(
      @Observes @Initialized(ApplicationScoped.class) Object ignored, BulwarkRuntime runtime) {
    meters.bind(runtime.engine());
  }

  @Override
  public void on(BulwarkEvent event) {
    meters.on(event);
  }
}
