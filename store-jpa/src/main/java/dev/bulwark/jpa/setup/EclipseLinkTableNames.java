package dev.bulwark.jpa.setup;

import java.util.Map;
import org.eclipse.persistence.config.PersistenceUnitProperties;
import org.eclipse.persistence.descriptors.ClassDescriptor;
import org.eclipse.persistence.internal.helper.DatabaseTable;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionCustomizer;
import org.eclipse.persistence.tools.schemaframework.IndexDefinition;

/**
 * The table prefix on EclipseLink: a session customizer that renames the store's tables and their
 * indexes before the session logs in. Loaded only when EclipseLink is the provider.
 */
final class EclipseLinkTableNames implements SessionCustomizer {

  private final TableNames names;

  private EclipseLinkTableNames(TableNames names) {
    this.names = names;
  }

  /** The properties that make EclipseLink use {@code names}. */
  static Map<String, Object> properties(TableNames names) {
    return Map.of(
        PersistenceUnitProperties.SESSION_CUSTOMIZER,
        new EclipseLinkTableNames(names),
        // no agent: the entities are used as written
        PersistenceUnitProperties.WEAVING,
        "false");
  }

  @Override
  public void customize(Session session) {
    for (ClassDescriptor descriptor : session.getDescriptors().values()) {
      for (DatabaseTable table : descriptor.getTables()) {
        if (!names.isStoreTable(table.getName())) {
          continue;
        }
        String physical = names.physical(table.getName());
        table.setName(physical);
        for (IndexDefinition index : table.getIndexes()) {
          index.setName(TableNames.index(physical, index.getFields()));
          index.setTargetTable(physical);
        }
      }
    }
  }
}
