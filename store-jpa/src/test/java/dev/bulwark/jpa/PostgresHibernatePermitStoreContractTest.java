package dev.bulwark.jpa;

import dev.bulwark.tck.PermitStoreContract;
import dev.bulwark.tck.StoreFixture;

class PostgresHibernatePermitStoreContractTest extends PermitStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  }
}
