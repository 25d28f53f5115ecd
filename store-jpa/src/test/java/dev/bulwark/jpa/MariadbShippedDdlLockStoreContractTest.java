package dev.bulwark.jpa;

import dev.bulwark.tck.LockStoreContract;
import dev.bulwark.tck.StoreFixture;

/** The contract suite on tables made by the shipped DDL, schema generation off. */
class MariadbShippedDdlLockStoreContractTest extends LockStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return JpaStoreFixture.onShippedDdl(TestDatabase.MARIADB);
  }
}
