package dev.bulwark.jpa;

import dev.bulwark.tck.LockStoreProperties;
import dev.bulwark.tck.StoreFixture;

class MariadbHibernateLockStorePropertiesTest extends LockStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.MARIADB, Provider.HIBERNATE);
  }

  @Override
  protected int tries() {
    return 8;
  }
}
