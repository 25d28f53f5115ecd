package dev.bulwark.jpa;

import dev.bulwark.tck.DefinitionContract;
import dev.bulwark.tck.StoreFixture;

class MariadbHibernateDefinitionContractTest extends DefinitionContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.MARIADB, Provider.HIBERNATE);
  }
}
