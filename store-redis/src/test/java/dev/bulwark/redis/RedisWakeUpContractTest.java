package dev.bulwark.redis;

import dev.bulwark.tck.StoreFixture;
import dev.bulwark.tck.WakeUpContract;

class RedisWakeUpContractTest extends WakeUpContract {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }
}
