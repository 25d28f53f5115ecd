package dev.bulwark.jpa;

import dev.bulwark.tck.DefinitionContract;
import dev.bulwark.tck.StoreFixture;

class PostgresEclipseLinkDefinitionContractTest extends DefinitionContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.ECLIPSELINK);
  }
}
