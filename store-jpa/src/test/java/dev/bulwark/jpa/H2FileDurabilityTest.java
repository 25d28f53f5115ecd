package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.jpa.setup.InvalidJpaSettingException;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's own pool on an H2 file shared by {@code AUTO_SERVER}: H2 writes each commit to the
 * file at once ({@code WRITE_DELAY=0}), so a JVM killed right after a grant takes no committed
 * grant with it; a URL asking for a delay is refused, naming the key.
 */
class H2FileDurabilityTest {

  @TempDir Path directory;

  @Test
  void commitsReachTheFileAtOnce() throws Exception {
    String url = "jdbc:h2:file:" + directory.resolve("store") + ";AUTO_SERVER=TRUE";
    JpaStoreFixture fixture = new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
    Map<String, String> config = fixture.config();
    config.put("url", url);
    try (JpaStore store = fixture.open(config, (request, token) -> {});
        Connection other = DriverManager.getConnection(url, "sa", "");
        Statement statement = other.createStatement();
        ResultSet setting =
            statement.executeQuery(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                    + " WHERE SETTING_NAME = 'WRITE_DELAY'")) {
      assertThat(store.permits().acquire(new PermitSpec("durable", 1, 60_000), 1, false))
          .isEqualTo(Grant.GRANTED);
      assertThat(setting.next()).isTrue();
      assertThat(setting.getString(1)).as("the file's WRITE_DELAY").isEqualTo("0");
    } finally {
      fixture.close();
    }
  }

  @Test
  void aUrlThatKeepsADelayIsRefused() {
    JpaStoreFixture fixture = new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);
    Map<String, String> config = fixture.config();
    config.put(
        "url",
        "jdbc:h2:file:" + directory.resolve("delayed") + ";AUTO_SERVER=TRUE;WRITE_DELAY=500");
    try {
      assertThatThrownBy(() -> fixture.open(config, (request, token) -> {}))
          .isInstanceOf(InvalidJpaSettingException.class)
          .hasMessageStartingWith("bulwark.jpa.url=")
          .hasMessageContaining("WRITE_DELAY=500");
    } finally {
      fixture.close();
    }
  }
}
