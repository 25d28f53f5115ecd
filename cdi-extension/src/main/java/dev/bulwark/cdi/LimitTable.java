package dev.bulwark.cdi;

import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.engine.EngineSettings;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The startup report: every limit enforced, its effective values and where each came from. */
final class LimitTable {

  private LimitTable() {}

  static String render(EngineSettings settings, Collection<LimitDefinition> definitions) {
    StringBuilder table = new StringBuilder();
    table
        .append("Bulwark: ")
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

  /** Definitions that share a kind and name but disagree on values: they fight over one limit. */
  static List<String> conflicts(Collection<LimitDefinition> definitions) {
    Map<String, LimitDefinition> first = new HashMap<>();
    return definitions.stream()
        .filter(LimitDefinition::enabled)
        .filter(
            d -> {
              LimitDefinition seen = first.putIfAbsent(d.kind() + "/" + d.name(), d);
              return seen != null && !shared(seen).equals(shared(d));
            })
        .map(
            d ->
                "Bulwark: "
                    + kind(d)
                    + " '"
                    + d.name()
                    + "' is declared with different values on "
                    + first.get(d.kind() + "/" + d.name()).origin().describe()
                    + " and "
                    + d.origin().describe()
                    + "; each call enforces the values of its own method")
        .toList();
  }

  private static Map<String, String> shared(LimitDefinition definition) {
    Map<String, String> values = new HashMap<>(definition.values());
    values.remove("mode");
    values.remove("waitingTime");
    return values;
  }

  private static String kind(LimitDefinition definition) {
    return definition.kind().configSegment();
  }
}
