package dev.bulwark.core.local;

import dev.bulwark.tck.PermitStoreContract;
import dev.bulwark.tck.StoreFixture;

class LocalPermitStoreContractTest extends PermitStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
