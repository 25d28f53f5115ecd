package dev.bulwark.redis;

import dev.bulwark.tck.RateStoreProperties;
import dev.bulwark.tck.StoreFixture;

class RedisRateStorePropertiesTest extends RateStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }

  @Override
  protected int tries() {
    return 25;
  }
}
