package dev.bulwark.jpa;

import dev.bulwark.tck.InspectContract;
import dev.bulwark.tck.StoreFixture;

class H2HibernateInspectContractTest extends InspectContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }
}
