package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.jpa.setup.InvalidJpaSettingException;
import dev.bulwark.jpa.setup.JpaSettings;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A store that cannot work fails its start with a message that names the setting at fault. */
class BadSettingsTest {

  private final JpaStoreFixture fixture = new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);

  @AfterEach
  void dropTables() {
    fixture.close();
  }

  @Test
  void missingTablesWithoutSchemaGenerationNameTheDdlAndTheSettings() {
    Map<String, String> config = fixture.config();
    config.remove("schema-generation");
    assertThatThrownBy(() -> fixture.open(config, (r, t) -> {}))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageContaining(fixture.prefix() + "limit")
        .hasMessageContaining("bulwark.jpa.table-prefix=" + fixture.prefix())
        .hasMessageContaining("bulwark.jpa.schema-generation=create")
        .hasMessageContaining("dev/bulwark/jpa/ddl/h2.sql");
  }

  @Test
  void anUnreachableUrlNamesTheUrl() {
    Map<String, String> config = fixture.config();
    config.put("url", "jdbc:postgresql://127.0.0.1:1/nowhere");
    config.put("connect-timeout", "300ms");
    assertThatThrownBy(() -> fixture.open(config, (r, t) -> {}))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageStartingWith("bulwark.jpa.url=jdbc:postgresql://127.0.0.1:1/nowhere")
        .hasMessageContaining("cannot connect");
  }

  @Test
  void aUrlNoDriverTakesNamesTheUrl() {
    Map<String, String> config = fixture.config();
    config.put("url", "jdbc:nosuchdb://localhost/x");
    assertThatThrownBy(() -> fixture.open(config, (r, t) -> {}))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageStartingWith("bulwark.jpa.url=jdbc:nosuchdb://localhost/x");
  }

  @Test
  void aWrongPasswordNamesTheCredentialsAndNeverShowsThePassword() {
    Map<String, String> config = fixture.config();
    config.put("password", "s3cret-never-shown");
    assertThatThrownBy(() -> fixture.open(config, (r, t) -> {}))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageContaining("bulwark.jpa.user / bulwark.jpa.password")
        .satisfies(e -> assertThat(stackText(e)).doesNotContain("s3cret-never-shown"));
  }

  @Test
  void aPasswordInTheUrlIsNeverShownWhenNothingAnswers() {
    Map<String, String> config = fixture.config();
    config.remove("password");
    config.put("url", "jdbc:postgresql://127.0.0.1:1/nowhere?user=app&password=s3cret-in-url");
    config.put("connect-timeout", "300ms");
    assertThatThrownBy(() -> fixture.open(config, (r, t) -> {}))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageStartingWith(
            "bulwark.jpa.url=jdbc:postgresql://127.0.0.1:1/nowhere?user=app&password=***")
        .satisfies(e -> assertThat(stackText(e)).doesNotContain("s3cret-in-url"));
    JpaSettings settings = settings(Map.of("bulwark.jpa.url", config.get("url")));
    assertThat(settings.describe()).doesNotContain("s3cret-in-url");
    assertThat(settings.toString()).doesNotContain("s3cret-in-url");
  }

  @Test
  void aRefusedPasswordInTheUrlIsNeverShown() {
    String url = TestDatabase.MARIADB.url();
    Map<String, String> config = fixture.config();
    config.remove("user");
    config.remove("password");
    config.put(
        "url",
        url
            + (url.contains("?") ? "&" : "?")
            + "user="
            + TestDatabase.MARIADB.user()
            + "&password=s3cret-in-url");
    assertThatThrownBy(() -> fixture.open(config, (r, t) -> {}))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageContaining("bulwark.jpa.user / bulwark.jpa.password")
        .hasMessageContaining("password=***")
        .satisfies(e -> assertThat(stackText(e)).doesNotContain("s3cret-in-url"));
  }

  @Test
  void aMalformedUrlWithAPasswordIsNeverShown() {
    assertThatThrownBy(
            () -> settings(Map.of("bulwark.jpa.url", "postgresql://db/app;password=pw1")))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageStartingWith(
            "Invalid config key 'bulwark.jpa.url': 'postgresql://db/app;password=***'")
        .hasMessageNotContaining("pw1");
  }

  @Test
  void anUnknownPersistenceUnitNamesTheSetting() {
    assertThatThrownBy(
            () ->
                JpaStore.open(
                    settings(Map.of("bulwark.jpa.persistence-unit", "no-such-unit")), (r, t) -> {}))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageStartingWith("bulwark.jpa.persistence-unit=no-such-unit");
  }

  @Test
  void aContainerDataSourceOutsideAContainerNamesTheSetting() {
    assertThatThrownBy(
            () ->
                JpaStore.open(settings(Map.of("bulwark.jpa.datasource", "jdbc/app")), (r, t) -> {}))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageStartingWith("bulwark.jpa.datasource=jdbc/app");
  }

  @Test
  void neitherUrlNorUnitNamesBoth() {
    assertThatThrownBy(() -> settings(Map.of()))
        .isInstanceOf(InvalidJpaSettingException.class)
        .hasMessageContaining("bulwark.jpa.url")
        .hasMessageContaining("bulwark.jpa.persistence-unit");
  }

  @Test
  void badValuesNameTheirKeys() {
    assertThatThrownBy(
            () ->
                settings(
                    Map.of(
                        "bulwark.jpa.url",
                        TestDatabase.H2_URL,
                        "bulwark.jpa.table-prefix",
                        "x; DROP TABLE y")))
        .hasMessageStartingWith("Invalid config key 'bulwark.jpa.table-prefix': 'x; DROP TABLE y'");
    assertThatThrownBy(
            () ->
                settings(
                    Map.of(
                        "bulwark.jpa.url",
                        TestDatabase.H2_URL,
                        "bulwark.jpa.wake-up-check-interval",
                        "soon")))
        .hasMessageStartingWith("Invalid config key 'bulwark.jpa.wake-up-check-interval': 'soon'");
    assertThatThrownBy(
            () ->
                settings(
                    Map.of(
                        "bulwark.jpa.url",
                        TestDatabase.H2_URL,
                        "bulwark.jpa.schema-generation",
                        "update")))
        .hasMessageStartingWith("Invalid config key 'bulwark.jpa.schema-generation': 'update'");
  }

  private static JpaSettings settings(Map<String, String> config) {
    return JpaSettings.from(k -> Optional.ofNullable(config.get(k)));
  }

  private static String stackText(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      text.append(t).append('\n');
    }
    return text.toString();
  }
}
