package dev.bulwark.quarkus.devservices;

import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.cdi.LimitTable;
import dev.bulwark.cdi.MetricsListenerBean;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * Starts the engine when the application starts, logs the table of limits and binds the metrics
 * beans to the engine, as bulwark-cdi's {@code StartupCheck} and {@code MetricsListenerBean} do
 * elsewhere. Quarkus fires {@code @Initialized(ApplicationScoped.class)}, which that check
 * observes, while it initializes classes (static init), before the runtime config is complete: an
 * engine started then misses what only runtime config has, such as the {@code bulwark.redis.url} of
 * Bulwark's Dev Service. The extension turns those observers off and registers this bean instead.
 */
public class StartAtRuntime {

  private static final Logger LOG = Logger.getLogger("dev.bulwark");

  @Inject @Any Instance<MetricsListenerBean> metrics;

  void onStart(@Observes StartupEvent event, BulwarkRuntime runtime) {
    LOG.info(
        LimitTable.render(
            runtime.engine().settings(), runtime.engine().registry().catalog().definitions()));
    metrics.forEach(listener -> listener.bind(runtime));
  }
}
