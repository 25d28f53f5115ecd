package dev.bulwark.jpa;

import dev.bulwark.tck.InspectContract;
import dev.bulwark.tck.StoreFixture;

class PostgresHibernateInspectContractTest extends InspectContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  }
}
