package dev.bulwark.redis;

import dev.bulwark.tck.LockStoreProperties;
import dev.bulwark.tck.StoreFixture;

class RedisLockStorePropertiesTest extends LockStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }

  @Override
  protected int tries() {
    return 50;
  }
}
