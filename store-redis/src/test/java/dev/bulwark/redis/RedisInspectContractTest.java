package dev.bulwark.redis;

import dev.bulwark.tck.InspectContract;
import dev.bulwark.tck.StoreFixture;

class RedisInspectContractTest extends InspectContract {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }
}
