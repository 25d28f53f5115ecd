package dev.bulwark.jpa;

import dev.bulwark.tck.RateStoreProperties;
import dev.bulwark.tck.StoreFixture;
import java.util.List;

class MariadbHibernateRateStorePropertiesTest extends RateStoreProperties {

  @Override
  protected StoreFixture createFixture() {
    return new JpaStoreFixture(TestDatabase.MARIADB, Provider.HIBERNATE);
  }

  @Override
  protected List<Long> intervalsMillis() {
    return List.of(50L, 125L);
  }

  @Override
  protected int tries() {
    return 5;
  }
}
