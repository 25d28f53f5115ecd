package dev.bulwark.jpa.setup;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.persistence.config.PersistenceUnitProperties;
import org.eclipse.persistence.descriptors.ClassDescriptor;
import org.eclipse.persistence.internal.helper.DatabaseField;
import org.eclipse.persistence.internal.helper.DatabaseTable;
import org.eclipse.persistence.mappings.DatabaseMapping;
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

  /** Tells the sessions of one JVM apart. */
  private static final AtomicLong SESSIONS = new AtomicLong();

  /** The properties that make EclipseLink use {@code names}. */
  static Map<String, Object> properties(TableNames names) {
    return Map.of(
        // EclipseLink shares one session per unit name and location: each store needs its own,
        // with its own table names
        PersistenceUnitProperties.SESSION_NAME,
        "bulwark-" + names.prefix() + SESSIONS.incrementAndGet(),
        PersistenceUnitProperties.SESSION_CUSTOMIZER,
        new EclipseLinkTableNames(names),
        // no agent: the entities are used as written
        PersistenceUnitProperties.WEAVING,
        "false",
        // EclipseLink's messages go where the store's go (java.util.logging), not to stdout
        PersistenceUnitProperties.LOGGING_LOGGER,
        "JavaLogger");
  }

  @Override
  public void customize(Session session) {
    // a query that failed is the store's to classify; no silent retries with pauses
    session.getLogin().setQueryRetryAttemptCount(0);
    // a field may refer to its own copy of its table: rename every copy, each once
    Set<DatabaseTable> renamed = Collections.newSetFromMap(new IdentityHashMap<>());
    for (ClassDescriptor descriptor : session.getDescriptors().values()) {
      for (DatabaseTable table : descriptor.getTables()) {
        rename(table, renamed);
      }
      List<DatabaseField> fields = new ArrayList<>();
      addAll(fields, descriptor.getPrimaryKeyFields());
      for (DatabaseMapping mapping : descriptor.getMappings()) {
        addAll(fields, mapping.getFields());
        if (mapping.getField() != null) {
          fields.add(mapping.getField());
        }
      }
      for (DatabaseField field : fields) {
        if (field.getTable() != null) {
          rename(field.getTable(), renamed);
        }
      }
    }
  }

  private static void addAll(List<DatabaseField> fields, List<DatabaseField> more) {
    if (more != null) {
      fields.addAll(more);
    }
  }

  private void rename(DatabaseTable table, Set<DatabaseTable> renamed) {
    if (!renamed.add(table) || !names.isStoreTable(table.getName())) {
      return;
    }
    String physical = names.physical(table.getName());
    table.setName(physical);
    for (IndexDefinition index : table.getIndexes()) {
      index.setName(TableNames.index(physical, index.getFields()));
      index.setTargetTable(physical);
    }
  }
}
