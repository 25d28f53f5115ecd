package dev.bulwark.sample;

import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.tck.TestServices;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

/**
 * The {@code jpa-postgresql} profile of {@code application.properties}, on the test PostgreSQL in a
 * schema of this test JVM (created here, dropped by the test), so parallel builds on one server do
 * not share tables. Before the application starts, another instance's definition of a bulkhead that
 * differs is in the table ({@link ConflictingDefinition}); hand-overs to other instances are looked
 * for only every {@link #WAKE_UP_CHECK_INTERVAL}, so that only PostgreSQL's notifications can tell
 * a waiter sooner; the log goes to a file the tests read.
 */
public class JpaPostgresProfile implements QuarkusTestProfile {

  static final String SCHEMA = "bulwark_sample_" + ProcessHandle.current().pid();
  static final String PROFILE = "jpa-postgresql";
  static final Duration WAKE_UP_CHECK_INTERVAL = Duration.ofSeconds(30);

  /** A lock the tests queue on, waiting longer than two check intervals. */
  static final String PROBE_LOCK = "notify-probe";

  static StoreDatabase database() {
    TestServices.Endpoint postgres = TestServices.postgresql();
    return new StoreDatabase(
        postgres.url() + "?currentSchema=" + SCHEMA, postgres.user(), postgres.password());
  }

  /** Runs {@code sql} on the server's test database, outside the schema. */
  static void execute(String sql) {
    TestServices.Endpoint postgres = TestServices.postgresql();
    try (Connection connection =
            DriverManager.getConnection(postgres.url(), postgres.user(), postgres.password());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + " failed on " + postgres.url(), e);
    }
  }

  @Override
  public String getConfigProfile() {
    return PROFILE;
  }

  @Override
  public Map<String, String> getConfigOverrides() {
    execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
    StoreDatabase database = database();
    ConflictingDefinition.recordIn(database, Dialect.POSTGRESQL.ddlResource());
    return Map.ofEntries(
        Map.entry("quarkus.datasource.postgresql.jdbc.url", database.url()),
        Map.entry("quarkus.datasource.postgresql.username", database.user()),
        Map.entry("quarkus.datasource.postgresql.password", database.password()),
        Map.entry("sample.legacy.call-duration", "100ms"),
        Map.entry("bulwark.jpa.wake-up-check-interval", WAKE_UP_CHECK_INTERVAL.toSeconds() + "s"),
        Map.entry("bulwark.lock." + PROBE_LOCK + ".waiting-time", "2m"),
        Map.entry("quarkus.log.file.enabled", "true"),
        Map.entry("quarkus.log.file.path", ConflictingDefinition.log(PROFILE).toString()));
  }
}
