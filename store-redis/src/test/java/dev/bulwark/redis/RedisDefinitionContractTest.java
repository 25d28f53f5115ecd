package dev.bulwark.redis;

import dev.bulwark.tck.DefinitionContract;
import dev.bulwark.tck.StoreFixture;

class RedisDefinitionContractTest extends DefinitionContract {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }
}
