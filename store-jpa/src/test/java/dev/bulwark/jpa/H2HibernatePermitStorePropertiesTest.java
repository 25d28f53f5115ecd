package dev.bulwark.jpa;

import dev.bulwark.tck.PermitStoreProperties;
import dev.bulwark.tck.StoreFixture;

class H2HibernatePermitStorePropertiesTest extends PermitStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }

  @Override
  protected int tries() {
    return 25;
  }
}
