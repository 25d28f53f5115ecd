package dev.bulwark.jpa;

import dev.bulwark.tck.LeaseRenewalContract;
import dev.bulwark.tck.StoreFixture;

/** The contract suite on tables made by the shipped DDL, schema generation off. */
class H2ShippedDdlLeaseRenewalContractTest extends LeaseRenewalContract {

  @Override
  protected StoreFixture createFixture() {
    return JpaStoreFixture.onShippedDdl(TestDatabase.H2);
  }
}
