package dev.bulwark.jpa;

import dev.bulwark.tck.PermitStoreProperties;
import dev.bulwark.tck.StoreFixture;

class PostgresHibernatePermitStorePropertiesTest extends PermitStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  }

  @Override
  protected int tries() {
    return 8;
  }
}
