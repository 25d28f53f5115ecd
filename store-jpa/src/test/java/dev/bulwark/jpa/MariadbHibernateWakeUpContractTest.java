package dev.bulwark.jpa;

import dev.bulwark.tck.StoreFixture;
import dev.bulwark.tck.WakeUpContract;

class MariadbHibernateWakeUpContractTest extends WakeUpContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.MARIADB, Provider.HIBERNATE);
  }
}
