package dev.bulwark.core.local;

import dev.bulwark.tck.InspectContract;
import dev.bulwark.tck.StoreFixture;

class LocalInspectContractTest extends InspectContract {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
