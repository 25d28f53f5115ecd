package dev.bulwark.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.util.logging.Logger;

/**
 * When the application starts: starts the engine (which builds every declared limit) and logs the
 * table of limits, each with its effective values and where each came from.
 */
@ApplicationScoped
public class StartupCheck {

  private static final Logger LOG = Logger.getLogger("dev.bulwark");

  void onStart(
      @Observes @Initialized(ApplicationScoped.class) Object event, BulwarkRuntime runtime) {
    LOG.info(
        LimitTable.render(
            runtime.engine().settings(), runtime.engine().registry().catalog().definitions()));
  }
}
