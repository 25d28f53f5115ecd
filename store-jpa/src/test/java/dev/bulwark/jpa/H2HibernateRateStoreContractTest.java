package dev.bulwark.jpa;

import dev.bulwark.tck.RateStoreContract;
import dev.bulwark.tck.StoreFixture;

class H2HibernateRateStoreContractTest extends RateStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }
}
