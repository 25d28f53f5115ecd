package dev.bulwark.metrics.mp;

import dev.bulwark.cdi.MetricsListenerBean;
import dev.bulwark.core.metrics.MetricsRecorder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Bulwark's metrics in a MicroProfile Metrics application (Payara): records into the application
 * registry. Having this module on the class path is all it takes.
 */
@ApplicationScoped
public class MpMetricsListener extends MetricsListenerBean {

  @Inject MetricRegistry registry;

  @Override
  protected MetricsRecorder recorder() {
    return new MpMetricsRecorder(registry);
  }
}
