package dev.bulwark.sample;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.file.Path;
import java.util.Map;

/** The {@code jpa-h2} profile of {@code application.properties}, on an H2 file of this test JVM. */
public class JpaH2Profile implements QuarkusTestProfile {

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
    return "jpa-h2";
  }

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of("quarkus.datasource.h2.jdbc.url", URL, "sample.legacy.call-duration", "100ms");
  }
}
