package dev.bulwark.jpa;

import dev.bulwark.tck.StoreFixture;
import dev.bulwark.tck.WakeUpContract;

class H2HibernateWakeUpContractTest extends WakeUpContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }
}
