package dev.bulwark.redis;

import dev.bulwark.tck.RateStoreContract;
import dev.bulwark.tck.StoreFixture;

class RedisRateStoreContractTest extends RateStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }
}
