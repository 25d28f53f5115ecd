package dev.bulwark.jpa;

import dev.bulwark.tck.LockStoreContract;
import dev.bulwark.tck.StoreFixture;

/** The contract suite on tables made by the shipped DDL, schema generation off. */
class PostgresShippedDdlLockStoreContractTest extends LockStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return JpaStoreFixture.onShippedDdl(TestDatabase.POSTGRESQL);
  }
}
