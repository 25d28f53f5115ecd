package dev.bulwark.jpa;

import dev.bulwark.tck.PermitStoreProperties;
import dev.bulwark.tck.StoreFixture;

class PostgresEclipseLinkPermitStorePropertiesTest extends PermitStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.ECLIPSELINK);
  }

  @Override
  protected int tries() {
    return 8;
  }
}
