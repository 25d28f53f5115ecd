package dev.bulwark.core.local;

import dev.bulwark.tck.LockStoreProperties;
import dev.bulwark.tck.StoreFixture;

class LocalLockStorePropertiesTest extends LockStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
