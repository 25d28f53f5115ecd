package dev.bulwark.core.local;

import dev.bulwark.tck.StoreFixture;
import dev.bulwark.tck.WakeUpContract;

class LocalWakeUpContractTest extends WakeUpContract {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
