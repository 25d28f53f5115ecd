package dev.bulwark.core.local;

import dev.bulwark.tck.LeaseRenewalContract;
import dev.bulwark.tck.StoreFixture;

class LocalLeaseRenewalContractTest extends LeaseRenewalContract {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
