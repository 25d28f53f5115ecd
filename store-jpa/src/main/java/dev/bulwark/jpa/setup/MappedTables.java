package dev.bulwark.jpa.setup;

import jakarta.persistence.EntityManager;

/**
 * The name a persistence unit's provider gives an entity's table, as SQL of the store's own must
 * write it: with the unit's schema, quoting and renaming (the table prefix, or an application's
 * mapping of the entities) applied. Asked of the provider once; another provider, which the store
 * cannot ask, gets the name under the configured prefix.
 */
public final class MappedTables {

  private static final Class<?> HIBERNATE_SESSION =
      load("org.hibernate.engine.spi.SharedSessionContractImplementor");
  private static final Class<?> ECLIPSELINK_ENTITY_MANAGER =
      load("org.eclipse.persistence.jpa.JpaEntityManager");

  private MappedTables() {}

  /**
   * @param entity a store entity mapped to {@code bulwark_<name>}
   */
  public static String of(EntityManager em, Class<?> entity, String mapped, TableNames names) {
    if (HIBERNATE_SESSION != null && HIBERNATE_SESSION.isInstance(em)) {
      return HibernateMappedTables.of(em, entity);
    }
    if (ECLIPSELINK_ENTITY_MANAGER != null && ECLIPSELINK_ENTITY_MANAGER.isInstance(em)) {
      return EclipseLinkMappedTables.of(em, entity);
    }
    return names.physical(mapped);
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, MappedTables.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }
}
