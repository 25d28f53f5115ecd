package dev.bulwark.sample;

import dev.bulwark.jpa.setup.Dialect;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.file.Path;
import java.util.Map;

/**
 * The {@code jpa-h2} profile of {@code application.properties}, on an H2 file of this test JVM.
 * Before the application starts, another instance's definition of a bulkhead that differs is in the
 * table ({@link ConflictingDefinition}); the log goes to a file the tests read.
 */
public class JpaH2Profile implements QuarkusTestProfile {

  static final String PROFILE = "jpa-h2";

  /** The same in every class loader of this JVM: Quarkus loads this class more than once. */
  static final String URL =
      "jdbc:h2:file:"
          + Path.of("target", "sample-h2-" + ProcessHandle.current().pid()).toAbsolutePath()
          + ";AUTO_SERVER=TRUE";

  static StoreDatabase database() {
    return new StoreDatabase(URL, "", "");
  }

  @Override
  public String getConfigProfile() {
    return PROFILE;
  }

  @Override
  public Map<String, String> getConfigOverrides() {
    ConflictingDefinition.recordIn(database(), Dialect.H2.ddlResource());
    return Map.of(
        "quarkus.datasource.h2.jdbc.url",
        URL,
        "sample.legacy.call-duration",
        "100ms",
        "quarkus.log.file.enabled",
        "true",
        "quarkus.log.file.path",
        ConflictingDefinition.log(PROFILE).toString());
  }
}
