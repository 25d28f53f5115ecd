package dev.bulwark.jpa;

import dev.bulwark.tck.LockStoreContract;
import dev.bulwark.tck.StoreFixture;

class H2HibernateLockStoreContractTest extends LockStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }
}
