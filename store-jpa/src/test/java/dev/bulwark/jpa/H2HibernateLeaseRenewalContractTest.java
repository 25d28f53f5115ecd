package dev.bulwark.jpa;

import dev.bulwark.tck.LeaseRenewalContract;
import dev.bulwark.tck.StoreFixture;

class H2HibernateLeaseRenewalContractTest extends LeaseRenewalContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }
}
