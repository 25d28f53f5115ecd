package dev.bulwark.jpa;

import dev.bulwark.tck.LockStoreProperties;
import dev.bulwark.tck.StoreFixture;

class H2HibernateLockStorePropertiesTest extends LockStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }

  @Override
  protected int tries() {
    return 25;
  }
}
