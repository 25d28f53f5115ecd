package dev.bulwark.jpa.container;

import dev.bulwark.core.engine.DefinitionRecorder;
import dev.bulwark.spi.BulwarkStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The definitions the engine gave a store that could not be opened yet (Quarkus builds the limits
 * before Hibernate ORM runs): kept until the store opens, then recorded, a conflict with another
 * JVM's record reported as the engine reports it.
 */
final class PendingDefinitions {

  private record Pending(
      String limit, String definition, Function<BulwarkStore, Optional<String>> define) {}

  private final List<Pending> pending = new ArrayList<>();

  /**
   * @param limit as the engine names it in messages: {@code bulkhead 'name'}, {@code rate limit
   *     'name'}
   */
  synchronized void add(
      String limit, String definition, Function<BulwarkStore, Optional<String>> define) {
    pending.add(new Pending(limit, definition, define));
  }

  /** Records every pending definition on {@code store}, once; one it cannot reach is skipped. */
  void recordOn(BulwarkStore store) {
    List<Pending> now;
    synchronized (this) {
      now = List.copyOf(pending);
      pending.clear();
    }
    for (Pending each : now) {
      DefinitionRecorder.record(each.limit(), each.definition(), () -> each.define().apply(store));
    }
  }
}
