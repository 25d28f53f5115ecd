package dev.bulwark.jpa;

import dev.bulwark.tck.PermitStoreContract;
import dev.bulwark.tck.StoreFixture;

class H2HibernatePermitStoreContractTest extends PermitStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }
}
