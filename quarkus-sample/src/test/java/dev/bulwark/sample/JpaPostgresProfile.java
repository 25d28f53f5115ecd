package dev.bulwark.sample;

import dev.bulwark.tck.TestServices;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The {@code jpa-postgresql} profile of {@code application.properties}, on the test PostgreSQL in a
 * schema of this test JVM (created here, dropped by the test), so parallel builds on one server do
 * not share tables.
 */
public class JpaPostgresProfile implements QuarkusTestProfile {

  static final String SCHEMA = "bulwark_sample_" + ProcessHandle.current().pid();

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
    return "jpa-postgresql";
  }

  @Override
  public Map<String, String> getConfigOverrides() {
    execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
    StoreDatabase database = database();
    return Map.of(
        "quarkus.datasource.postgresql.jdbc.url", database.url(),
        "quarkus.datasource.postgresql.username", database.user(),
        "quarkus.datasource.postgresql.password", database.password(),
        "sample.legacy.call-duration", "100ms");
  }
}
