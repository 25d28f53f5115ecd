package dev.bulwark.redis;

import dev.bulwark.tck.LockStoreContract;
import dev.bulwark.tck.StoreFixture;

class RedisLockStoreContractTest extends LockStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }
}
