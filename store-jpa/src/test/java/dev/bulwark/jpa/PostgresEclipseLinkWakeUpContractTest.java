package dev.bulwark.jpa;

import dev.bulwark.tck.StoreFixture;
import dev.bulwark.tck.WakeUpContract;

class PostgresEclipseLinkWakeUpContractTest extends WakeUpContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.ECLIPSELINK);
  }
}
