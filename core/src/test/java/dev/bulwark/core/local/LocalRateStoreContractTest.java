package dev.bulwark.core.local;

import dev.bulwark.tck.RateStoreContract;
import dev.bulwark.tck.StoreFixture;

class LocalRateStoreContractTest extends RateStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
