package dev.bulwark.core.engine;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import dev.bulwark.spi.StoreException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Records each limit's definition in a shared store when the limiter is built, and reports a JVM of
 * the same service that enforces the same name with a different limit. Every JVM keeps enforcing
 * its own definition: the conflict is a deployment mistake to be told, not guessed at. Public for a
 * store that can record a definition only after the engine built the limit (a container's unit
 * usable only later), so that it reports the conflict in the same words.
 */
public final class DefinitionRecorder {

  private static final BulwarkLog LOG = BulwarkLog.of(DefinitionRecorder.class);

  private DefinitionRecorder() {}

  /**
   * Records a definition and logs a conflict with the record another JVM made.
   *
   * @param limit the limit as messages name it: {@code bulkhead 'name'}, {@code rate limit 'name'}
   * @param here this JVM's definition
   * @param define records it, answering the differing record of another JVM
   */
  public static void record(String limit, String here, Supplier<Optional<String>> define) {
    try {
      define.get().ifPresent(other -> LOG.warn(LogMessage.DEFINED_DIFFERENTLY, limit, here, other));
    } catch (StoreException e) {
      LOG.debug("Bulwark: could not record the definition of " + limit + "; skipped", e);
    }
  }
}
