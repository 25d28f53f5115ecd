package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The DDL files the store ships create what schema generation creates: the same columns, types,
 * keys and indexes on each database, for either provider; and a store without schema generation
 * runs on them.
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

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  void aStoreWithoutSchemaGenerationRunsOnTheShippedDdl(TestDatabase database) {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    ShippedDdl.apply(database, fixture.prefix());
    Map<String, String> config = fixture.config();
    config.remove("schema-generation");
    try (JpaStore store = fixture.open(config, (r, t) -> {})) {
      PermitSpec spec = new PermitSpec("ddl", 1, 60_000);
      assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      assertThat(store.permits().acquire(spec, 2, false)).isEqualTo(Grant.REJECTED);
      assertThat(store.permits().release(spec, 1)).isTrue();
    } finally {
      fixture.close();
    }
  }
}
