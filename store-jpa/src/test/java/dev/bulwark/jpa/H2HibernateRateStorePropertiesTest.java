package dev.bulwark.jpa;

import dev.bulwark.tck.RateStoreProperties;
import dev.bulwark.tck.StoreFixture;

class H2HibernateRateStorePropertiesTest extends RateStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }

  @Override
  protected int tries() {
    return 15;
  }
}
