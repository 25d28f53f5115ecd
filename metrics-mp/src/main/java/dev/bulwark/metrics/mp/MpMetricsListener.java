package dev.bulwark.metrics.mp;

import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Bulwark's metrics in a MicroProfile Metrics application (Payara): records into the application
 * registry. Having this module on the class path is all it takes.
 */
@ApplicationScoped
public class MpMetricsListener implements BulwarkListener {

  @Inject MetricRegistry registry;

  private BulwarkMpMetrics metrics;

  @PostConstruct
  void create() {
    metrics = new BulwarkMpMetrics(registry);
  }

  /** Binds to the engine once the application started, so the store's metrics exist at once. */
  void started(
      @Observes @Initialized(ApplicationScoped.class) Object ignored, BulwarkRuntime runtime) {
    metrics.bind(runtime.engine());
  }

  @Override
  public void on(BulwarkEvent event) {
    metrics.on(event);
  }
}
