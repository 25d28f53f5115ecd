package dev.bulwark.faulttolerance;

import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.core.config.LimitDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.weld.environment.se.WeldContainer;

/** The limits a container's Bulwark engine enforces, by name, as its startup table lists them. */
final class MappedDefinitions {

  private MappedDefinitions() {}

  static Map<String, LimitDefinition> of(WeldContainer container) {
    Map<String, LimitDefinition> byName = new LinkedHashMap<>();
    for (LimitDefinition definition :
        container.select(BulwarkRuntime.class).get().engine().registry().catalog().definitions()) {
      byName.put(definition.name(), definition);
    }
    return byName;
  }
}
