package dev.bulwark.core.local;

import dev.bulwark.tck.RateStoreProperties;
import dev.bulwark.tck.StoreFixture;

class LocalRateStorePropertiesTest extends RateStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }

  @Override
  protected int tries() {
    return 30;
  }
}
