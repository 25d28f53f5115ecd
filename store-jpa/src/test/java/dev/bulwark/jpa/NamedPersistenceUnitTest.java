package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The store on a persistence unit of the application ({@code bulwark.jpa.persistence-unit}, see the
 * test persistence.xml): it creates its tables under its prefix there and works as on its own unit.
 */
class NamedPersistenceUnitTest {

  @Test
  void theStoreRunsOnANamedUnitUnderItsPrefix() {
    String prefix = JpaStoreFixture.newPrefix();
    Map<String, String> config =
        Map.of(
            "bulwark.jpa.persistence-unit", "application-unit",
            "bulwark.jpa.table-prefix", prefix,
            "bulwark.jpa.schema-generation", "create");
    PermitSpec spec = new PermitSpec("named-unit", 1, 60_000);
    try (JpaStore store =
        JpaStore.open(JpaSettings.from(k -> Optional.ofNullable(config.get(k))), (r, t) -> {})) {
      assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      assertThat(store.permits().acquire(spec, 2, false)).isEqualTo(Grant.REJECTED);
      assertThat(TestDatabase.H2.rows(prefix, "claim")).isEqualTo(1);
    } finally {
      TestDatabase.H2.dropTables(prefix);
    }
  }
}
