package dev.bulwark.cdi;

import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.engine.EngineSettings;
import java.util.Collection;

/** The startup report: every limit enforced, its effective values and where each came from. */
final class LimitTable {

  private LimitTable() {}

  static String render(EngineSettings settings, Collection<LimitDefinition> definitions) {
    StringBuilder table = new StringBuilder();
    table
        .append(definitions.size())
        .append(" limit(s), store '")
        .append(settings.storeId())
        .append("', failure policy ")
        .append(settings.failurePolicy())
        .append(settings.enabled() ? "" : ", DISABLED by bulwark.enabled=false");
    for (LimitDefinition definition : definitions) {
      table
          .append(System.lineSeparator())
          .append(
              String.format(
                  "  %-10s %-32s %-48s",
                  kind(definition), definition.name(), definition.origin().describe()));
      if (!definition.enabled()) {
        table.append(" disabled by ").append(definition.sources().get("enabled"));
        continue;
      }
      definition
          .values()
          .forEach(
              (member, value) ->
                  table
                      .append(' ')
                      .append(member)
                      .append('=')
                      .append(value)
                      .append(" (")
                      .append(definition.sources().getOrDefault(member, "annotation"))
                      .append(')'));
    }
    return table.toString();
  }

  private static String kind(LimitDefinition definition) {
    return definition.kind().configSegment();
  }
}
