package dev.bulwark.jpa.setup;

import jakarta.persistence.EntityManager;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.persister.entity.AbstractEntityPersister;
import org.hibernate.persister.entity.EntityPersister;

/** An entity's table as Hibernate renders it in SQL. Loaded only when Hibernate is the provider. */
final class HibernateMappedTables {

  private HibernateMappedTables() {}

  static String of(EntityManager em, Class<?> entity) {
    EntityPersister persister =
        em.unwrap(SharedSessionContractImplementor.class)
            .getFactory()
            .getMappingMetamodel()
            .getEntityDescriptor(entity);
    return ((AbstractEntityPersister) persister).getRootTableName();
  }
}
