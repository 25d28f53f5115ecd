package dev.bulwark.jpa;

import dev.bulwark.tck.DefinitionContract;
import dev.bulwark.tck.StoreFixture;

class H2HibernateDefinitionContractTest extends DefinitionContract {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
  }
}
