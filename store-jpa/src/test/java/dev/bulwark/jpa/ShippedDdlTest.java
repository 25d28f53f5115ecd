package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The DDL files the store ships create what schema generation creates: the same columns, types,
 * keys and indexes on each database, for either provider. ({@code *ShippedDdlLockStoreContractTest}
 * run the lock suite on them with schema generation off.)
 */
class ShippedDdlTest {

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  void theShippedDdlCreatesWhatHibernateGenerates(TestDatabase database) {
    assertSameLayout(database, Provider.HIBERNATE);
  }

  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "H2"})
  void theShippedDdlCreatesWhatEclipseLinkGenerates(TestDatabase database) {
    assertSameLayout(database, Provider.ECLIPSELINK);
  }

  private static void assertSameLayout(TestDatabase database, Provider provider) {
    JpaStoreFixture generated = new JpaStoreFixture(database, provider);
    String shipped = JpaStoreFixture.newPrefix();
    try {
      generated.open(generated.config(), (r, t) -> {}).close();
      ShippedDdl.apply(database, shipped);
      TableLayout fromGeneration = TableLayout.read(database, generated.prefix());
      TableLayout fromDdl = TableLayout.read(database, shipped);
      assertThat(fromGeneration.columns().get("claim")).isNotEmpty();
      assertThat(fromDdl).isEqualTo(fromGeneration);
    } finally {
      database.dropTables(generated.prefix());
      database.dropTables(shipped);
    }
  }
}
