package dev.bulwark.jpa;

import dev.bulwark.tck.LockStoreContract;
import dev.bulwark.tck.StoreFixture;

class PostgresHibernateLockStoreContractTest extends LockStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  }
}
