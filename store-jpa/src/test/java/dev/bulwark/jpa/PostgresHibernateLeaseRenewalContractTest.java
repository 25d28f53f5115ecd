package dev.bulwark.jpa;

import dev.bulwark.tck.LeaseRenewalContract;
import dev.bulwark.tck.StoreFixture;

class PostgresHibernateLeaseRenewalContractTest extends LeaseRenewalContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  }
}
