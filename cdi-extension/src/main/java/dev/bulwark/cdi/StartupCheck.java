package dev.bulwark.cdi;

import dev.bulwark.core.config.LimitDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.util.List;
import java.util.logging.Logger;

/**
 * When the application starts: starts the engine, resolves every guarded method once more against
 * the runtime config (on Quarkus this is the first time config is read) and logs the table of
 * limits. An invalid definition stops the start with a {@link DefinitionException}.
 */
@ApplicationScoped
public class StartupCheck {

  private static final Logger LOG = Logger.getLogger("dev.bulwark");

  void onStart(
      @Observes @Initialized(ApplicationScoped.class) Object event,
      BulwarkRuntime runtime,
      GuardedClasses guarded) {
    GuardedMethods.Scan scan = runtime.scan(guarded.classes());
    if (!scan.problems().isEmpty()) {
      throw new DefinitionException(String.join(System.lineSeparator(), scan.problems()));
    }
    List<LimitDefinition> definitions = scan.definitions();
    LimitTable.conflicts(definitions).forEach(LOG::warning);
    LOG.info(LimitTable.render(runtime.engine().settings(), definitions));
  }
}
