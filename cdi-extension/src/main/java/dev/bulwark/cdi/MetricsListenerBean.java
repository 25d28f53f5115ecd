package dev.bulwark.cdi;

import dev.bulwark.core.metrics.MetricsCollector;
import dev.bulwark.core.metrics.MetricsRecorder;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

/**
 * What a metrics module's CDI bean is: a {@link MetricsCollector} on the module's recorder, bound
 * to the engine once the application started, so the store's metrics exist at once. A module
 * subclasses it as an {@code @ApplicationScoped} bean and supplies {@link #recorder()}. With {@code
 * MP_Fault_Tolerance_Metrics_Enabled=false} it records nothing and registers no metric.
 */
public abstract class MetricsListenerBean implements BulwarkListener {

  /** Null while metrics are turned off. */
  private MetricsCollector metrics;

  /** The recorder of the module's metrics library; called once, after injection. */
  protected abstract MetricsRecorder recorder();

  @PostConstruct
  protected void create() {
    if (MetricsCollector.enabled(MpConfigLookup.current())) {
      metrics = new MetricsCollector(recorder());
    }
  }

  protected void started(
      @Observes @Initialized(ApplicationScoped.class) Object ignored, BulwarkRuntime runtime) {
    if (metrics != null) {
      metrics.bind(runtime.engine());
    }
  }

  @Override
  public void on(BulwarkEvent event) {
    if (metrics != null) {
      metrics.on(event);
    }
  }
}
