package dev.bulwark.core.local;

import dev.bulwark.tck.LockStoreContract;
import dev.bulwark.tck.StoreFixture;

class LocalLockStoreContractTest extends LockStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
