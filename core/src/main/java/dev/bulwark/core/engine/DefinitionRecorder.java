package dev.bulwark.core.engine;

import dev.bulwark.spi.StoreException;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Records each limit's definition in a shared store when the limiter is built, and reports a JVM of
 * the same service that enforces the same name with a different limit. Every JVM keeps enforcing
 * its own definition: the conflict is a deployment mistake to be told, not guessed at.
 */
final class DefinitionRecorder {

  private static final Logger LOG = Logger.getLogger(DefinitionRecorder.class.getName());

  private DefinitionRecorder() {}

  static void record(String limit, String here, Supplier<Optional<String>> define) {
    try {
      define
          .get()
          .ifPresent(
              other ->
                  LOG.warning(
                      () ->
                          "Bulwark: "
                              + limit
                              + " is defined differently on another JVM of this service: here "
                              + here
                              + ", recorded there "
                              + other
                              + ". Each JVM enforces its own definition; deploy one value"
                              + " everywhere."));
    } catch (StoreException e) {
      LOG.log(Level.FINE, "Bulwark: could not record the definition of " + limit + "; skipped", e);
    }
  }
}
