package dev.bulwark.core.local;

import dev.bulwark.tck.PermitStoreProperties;
import dev.bulwark.tck.StoreFixture;

class LocalPermitStorePropertiesTest extends PermitStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
