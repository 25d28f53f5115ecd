package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.LimitRow;
import java.util.Optional;

/**
 * Records on the limit's row the definition each JVM enforces, and reports the previous record when
 * another JVM's differs. The newest record wins, so a third JVM learns of the latest conflict.
 */
final class Definitions {

  private final StoreCore core;

  Definitions(StoreCore core) {
    this.core = core;
  }

  Optional<String> record(String kind, String name, String definition) {
    return core.transactions()
        .run(
            "record the definition of " + name,
            em -> {
              LimitRow limit = core.lockLimit(em, kind, name);
              String previous = limit.definition();
              String previousBy = limit.definedBy();
              limit.define(definition, core.instance());
              if (previous == null || previous.equals(definition)) {
                return Optional.<String>empty();
              }
              return Optional.of(previous + " (instance " + previousBy + ")");
            });
  }
}
