package dev.bulwark.cdi;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

/**
 * When the application starts: starts the engine (which builds every declared limit) and logs the
 * table of limits, each with its effective values and where each came from.
 */
@ApplicationScoped
public class StartupCheck {

  private static final BulwarkLog LOG = BulwarkLog.named("dev.bulwark");

  void onStart(
      @Observes @Initialized(ApplicationScoped.class) Object event, BulwarkRuntime runtime) {
    LOG.info(
        LogMessage.LIMITS_AT_START,
        LimitTable.render(
            runtime.engine().settings(), runtime.engine().registry().catalog().definitions()));
  }
}
