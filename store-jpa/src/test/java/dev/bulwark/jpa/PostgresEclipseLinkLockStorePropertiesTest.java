package dev.bulwark.jpa;

import dev.bulwark.tck.LockStoreProperties;
import dev.bulwark.tck.StoreFixture;

class PostgresEclipseLinkLockStorePropertiesTest extends LockStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.ECLIPSELINK);
  }

  @Override
  protected int tries() {
    return 8;
  }
}
