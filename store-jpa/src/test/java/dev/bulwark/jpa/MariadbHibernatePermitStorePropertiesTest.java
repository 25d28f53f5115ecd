package dev.bulwark.jpa;

import dev.bulwark.tck.PermitStoreProperties;
import dev.bulwark.tck.StoreFixture;

class MariadbHibernatePermitStorePropertiesTest extends PermitStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.MARIADB, Provider.HIBERNATE);
  }

  @Override
  protected int tries() {
    return 8;
  }
}
