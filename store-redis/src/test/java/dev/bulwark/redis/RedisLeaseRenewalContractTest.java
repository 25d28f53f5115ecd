package dev.bulwark.redis;

import dev.bulwark.tck.LeaseRenewalContract;
import dev.bulwark.tck.StoreFixture;

class RedisLeaseRenewalContractTest extends LeaseRenewalContract {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }
}
