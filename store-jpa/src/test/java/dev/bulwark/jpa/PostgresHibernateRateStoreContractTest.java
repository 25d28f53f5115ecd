package dev.bulwark.jpa;

import dev.bulwark.tck.RateStoreContract;
import dev.bulwark.tck.StoreFixture;

class PostgresHibernateRateStoreContractTest extends RateStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  }
}
