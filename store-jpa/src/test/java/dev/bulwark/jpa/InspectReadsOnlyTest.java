package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.RateLimitType;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JPA store's operator's view reads and nothing else: it answers while another transaction
 * holds every row of the store locked (so it takes no row lock), leaves an expired claim row in
 * place for the next step on the limit, and creates no limit row for a name never used.
 */
class InspectReadsOnlyTest {

  private static final long LEASE_MILLIS = 200;

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  @Timeout(60)
  void inspectingTakesNoRowLockAndChangesNoRow(TestDatabase database) throws Exception {
    try (JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
        JpaStore store = fixture.open(withoutCleanup(fixture), (request, token) -> {})) {
      PermitSpec spec = new PermitSpec("reports", 1, LEASE_MILLIS);
      long granted = database.nowMicros();
      assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      awaitDatabaseClockPast(database, granted + 2 * LEASE_MILLIS * 1000);

      try (Connection other = database.connect()) {
        other.setAutoCommit(false);
        try (Statement statement = other.createStatement()) {
          for (String table : List.of("limit", "claim")) {
            statement.execute("SELECT * FROM " + fixture.prefix() + table + " FOR UPDATE");
          }
        }
        BulkheadSnapshot snapshot =
            CompletableFuture.supplyAsync(() -> store.permits().inspect(spec))
                .get(20, TimeUnit.SECONDS);
        assertThat(snapshot).isEqualTo(new BulkheadSnapshot("reports", 1, List.of(), 0));
        other.rollback();
      }
      assertThat(rows(fixture, "claim")).as("the expired row, left for the next step").isEqualTo(1);

      long limits = rows(fixture, "limit");
      store.permits().inspect(new PermitSpec("never-used", 1, LEASE_MILLIS));
      store.locks().inspect(new LockSpec("never-used", LEASE_MILLIS), "key");
      store.rates().inspect(new RateSpec("never-used", RateLimitType.ROLLING, 1, 1_000_000_000L));
      assertThat(rows(fixture, "limit")).as("no limit row for a name never used").isEqualTo(limits);
    }
  }

  /** The cleanup task would delete the expired row this test looks for. */
  private static Map<String, String> withoutCleanup(JpaStoreFixture fixture) {
    Map<String, String> config = fixture.config();
    config.put("cleanup-interval", "1h");
    return config;
  }

  private static void awaitDatabaseClockPast(TestDatabase database, long micros)
      throws InterruptedException {
    while (database.nowMicros() <= micros) {
      Thread.sleep(LEASE_MILLIS / 4);
    }
  }

  private static long rows(JpaStoreFixture fixture, String table) {
    return fixture.database().rows(fixture.prefix(), table);
  }
}
