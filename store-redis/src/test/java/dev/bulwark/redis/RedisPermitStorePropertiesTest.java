package dev.bulwark.redis;

import dev.bulwark.tck.PermitStoreProperties;
import dev.bulwark.tck.StoreFixture;

class RedisPermitStorePropertiesTest extends PermitStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }

  @Override
  protected int tries() {
    return 50;
  }
}
