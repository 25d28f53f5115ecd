package dev.bulwark.jpa.setup;

import jakarta.persistence.EntityManager;
import org.eclipse.persistence.internal.databaseaccess.DatasourcePlatform;
import org.eclipse.persistence.internal.sessions.AbstractSession;
import org.eclipse.persistence.jpa.JpaEntityManager;

/**
 * An entity's table as EclipseLink writes it in SQL. Loaded only when EclipseLink is the provider.
 */
final class EclipseLinkMappedTables {

  private EclipseLinkMappedTables() {}

  static String of(EntityManager em, Class<?> entity) {
    AbstractSession session = em.unwrap(JpaEntityManager.class).getAbstractSession();
    return session
        .getDescriptor(entity)
        .getDefaultTable()
        .getQualifiedNameDelimited((DatasourcePlatform) session.getDatasourcePlatform());
  }
}
