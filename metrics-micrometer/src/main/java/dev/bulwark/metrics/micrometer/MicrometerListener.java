package dev.bulwark.metrics.micrometer;

import dev.bulwark.cdi.MetricsListenerBean;
import dev.bulwark.core.metrics.MetricsRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * Bulwark's metrics in a CDI application: records into the application's {@link MeterRegistry} bean
 * (on Quarkus, the one of {@code quarkus-micrometer}), or into Micrometer's global registry when
 * there is none. Having this module on the class path is all it takes.
 */
@ApplicationScoped
public class MicrometerListener extends MetricsListenerBean {

  @Inject Instance<MeterRegistry> registries;

  @Override
  protected MetricsRecorder recorder() {
    return new MicrometerRecorder(
        registries.isResolvable() ? registries.get() : Metrics.globalRegistry);
  }
}
