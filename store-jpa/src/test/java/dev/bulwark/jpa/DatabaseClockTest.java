package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store takes every time from the database, never from the JVM: on a PostgreSQL connection
 * whose {@code clock_timestamp()} runs a day ahead (a function of that name in a schema searched
 * before pg_catalog), leases end a day from the JVM's now, and a fixed rate window is the
 * database's window.
 */
class DatabaseClockTest {

  private static final Duration AHEAD = Duration.ofDays(1);

  private final String schema = "clk" + JpaStoreFixture.newPrefix();
  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);

  @BeforeEach
  void clockADayAhead() throws Exception {
    try (Connection connection = TestDatabase.POSTGRESQL.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + schema);
      statement.execute(
          "CREATE FUNCTION "
              + schema
              + ".clock_timestamp() RETURNS timestamptz LANGUAGE sql AS"
              + " $$ SELECT pg_catalog.clock_timestamp() + interval '1 day' $$");
    }
  }

  @AfterEach
  void dropSchema() throws Exception {
    try (Connection connection = TestDatabase.POSTGRESQL.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA " + schema + " CASCADE");
    }
  }

  @Test
  void leasesAndRateWindowsFollowTheDatabaseClock() throws Exception {
    Map<String, String> config = fixture.config();
    String url = config.get("url");
    config.put(
        "url", url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema + ",pg_catalog");
    try (JpaStore store = fixture.open(config, (r, t) -> {})) {
      long jvmBefore = System.currentTimeMillis() * 1000;
      assertThat(store.permits().acquire(new PermitSpec("clocked", 1, 60_000), 1, false))
          .isEqualTo(Grant.GRANTED);
      long expiresAt =
          single("SELECT expires_at FROM " + schema + "." + fixture.prefix() + "claim");
      long ahead = expiresAt - jvmBefore;
      assertThat(Duration.ofNanos(ahead * 1000))
          .as("the lease ends a day and a minute after the JVM's now")
          .isBetween(AHEAD, AHEAD.plusMinutes(2));

      RateSpec fixed = new RateSpec("clocked", RateLimitType.FIXED, 1, 1_000_000_000L);
      assertThat(store.rates().reserve(fixed, 0).granted()).isTrue();
      long window =
          single(
              "SELECT rate_first FROM "
                  + schema
                  + "."
                  + fixture.prefix()
                  + "limit"
                  + " WHERE kind = 'R'");
      long jvmWindow = System.currentTimeMillis() / 1000;
      assertThat(window - jvmWindow)
          .as("the fixed window counts seconds of the database's clock")
          .isBetween(AHEAD.toSeconds() - 60, AHEAD.toSeconds() + 60);
    }
  }

  private static long single(String sql) throws Exception {
    try (Connection connection = TestDatabase.POSTGRESQL.connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      assertThat(result.next()).as(sql).isTrue();
      return result.getLong(1);
    }
  }
}
