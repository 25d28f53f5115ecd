package dev.bulwark.core.local;

import dev.bulwark.tck.DefinitionContract;
import dev.bulwark.tck.StoreFixture;

class LocalDefinitionContractTest extends DefinitionContract {

  @Override
  protected StoreFixture createFixture() {
    return new LocalStoreFixture();
  }
}
