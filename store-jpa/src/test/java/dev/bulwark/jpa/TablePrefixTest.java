package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two table prefixes in one schema are two independent stores: tables and indexes of both are
 * created side by side (PostgreSQL keeps index names per schema), and a limit of one name holds in
 * each store separately.
 */
class TablePrefixTest {

  @ParameterizedTest
  @EnumSource(Provider.class)
  void twoPrefixesSideBySideOnPostgresqlAreTwoStores(Provider provider) {
    JpaStoreFixture first = new JpaStoreFixture(TestDatabase.POSTGRESQL, provider);
    JpaStoreFixture second = new JpaStoreFixture(TestDatabase.POSTGRESQL, provider);
    PermitSpec spec = new PermitSpec("shared-name", 1, 60_000);
    try (JpaStore a = first.open(first.config(), (r, t) -> {});
        JpaStore b = second.open(second.config(), (r, t) -> {})) {
      assertThat(a.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      assertThat(b.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      assertThat(a.permits().acquire(spec, 2, false)).isEqualTo(Grant.REJECTED);
      assertThat(b.permits().acquire(spec, 2, false)).isEqualTo(Grant.REJECTED);

      TestDatabase db = TestDatabase.POSTGRESQL;
      assertThat(db.rows(first.prefix(), "claim")).isEqualTo(1);
      assertThat(db.rows(second.prefix(), "claim")).isEqualTo(1);
      assertThat(TableLayout.read(db, first.prefix()).indexes().get("claim"))
          .as("every index of the second prefix exists beside the first's")
          .hasSize(4)
          .isEqualTo(TableLayout.read(db, second.prefix()).indexes().get("claim"));
    } finally {
      first.close();
      second.close();
    }
  }
}
