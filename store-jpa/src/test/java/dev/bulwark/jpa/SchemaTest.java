package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.ProviderChoice;
import dev.bulwark.jpa.setup.TableNames;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The store on an application's unit that maps its tables into a schema (Hibernate's {@code
 * hibernate.default_schema}, an orm.xml's default schema on EclipseLink) which is not on the
 * connection's search path: a limit's first use (its row made by the insert-if-absent), a bulkhead
 * and a SMOOTH rate limit's optimistic reservations all write to the tables in that schema.
 */
class SchemaTest {

  /** The schema of the test units (persistence.xml, schema-orm.xml). */
  private static final String SCHEMA = "bulwark_schema_test";

  @ParameterizedTest
  @EnumSource(Provider.class)
  void everyStatementUsesTheMappedSchema(Provider provider) throws SQLException {
    TestDatabase database = TestDatabase.POSTGRESQL;
    String prefix = JpaStoreFixture.newPrefix();
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
    }
    Map<String, Object> properties =
        new HashMap<>(ProviderChoice.namingProperties(provider.className, new TableNames(prefix)));
    properties.put("jakarta.persistence.jdbc.url", database.url());
    properties.put("jakarta.persistence.jdbc.user", database.user());
    properties.put("jakarta.persistence.jdbc.password", database.password());
    properties.put("jakarta.persistence.schema-generation.database.action", "create");
    Map<String, String> config =
        Map.of("bulwark.jpa.persistence-unit", "schema", "bulwark.jpa.table-prefix", prefix);
    JpaSettings settings = JpaSettings.from(key -> Optional.ofNullable(config.get(key)));
    String unit = provider == Provider.HIBERNATE ? "schema-hibernate" : "schema-eclipselink";
    EntityManagerFactory factory = Persistence.createEntityManagerFactory(unit, properties);
    try (JpaStore store =
        JpaStore.on(
            new ResourceLocalUnitOfWork(factory),
            database.dialect,
            null,
            settings,
            (request, token) -> {},
            factory::close)) {
      PermitSpec permits = new PermitSpec("schema", 1, 60_000);
      assertThat(store.permits().acquire(permits, 1, false)).isEqualTo(Grant.GRANTED);
      assertThat(store.permits().acquire(permits, 2, false)).isEqualTo(Grant.REJECTED);
      RateSpec rate = new RateSpec("schema-rate", RateLimitType.SMOOTH, 2, 60_000_000_000L);
      // the first reservation creates the limit's state on the locked path, the next two take the
      // optimistic one: a grant (a swap) and a rejection (a read)
      assertThat(store.rates().reserve(rate, 0).granted()).isTrue();
      assertThat(store.rates().reserve(rate, 0).granted()).isTrue();
      assertThat(store.rates().reserve(rate, 0).granted()).isFalse();
      assertThat(database.rows(SCHEMA + "." + prefix, "claim")).isEqualTo(1);
      assertThat(database.rows(SCHEMA + "." + prefix, "limit")).isEqualTo(2);
    } finally {
      database.dropTables(SCHEMA + "." + prefix);
    }
  }
}
