package dev.bulwark.redis;

import dev.bulwark.tck.PermitStoreContract;
import dev.bulwark.tck.StoreFixture;

class RedisPermitStoreContractTest extends PermitStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }
}
