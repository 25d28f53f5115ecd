package dev.bulwark.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged application, started as its own process: Bulwark's Quarkus extension checks at build
 * time only what is wrong whatever the config, so an invalid config value must still stop the
 * application when it starts, naming the method, the member and the key.
 */
class StartupValidationIT {

  private static final Path JAR = Path.of(System.getProperty("sample.jar"));

  @Test
  void anInvalidConfigValueStopsTheStartNamingMethodMemberAndKey() throws Exception {
    Result result = start("-Dbulwark.bulkhead.legacy-api.value=0");
    assertThat(result.exited()).as("the application stops by itself").isTrue();
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output())
        .contains("DefinitionException")
        .contains("dev.bulwark.sample.LegacyService#fetchReport")
        .contains("member 'value'")
        .contains("'bulwark.bulkhead.legacy-api.value'");
  }

  @Test
  void anUnparsableDurationStopsTheStart() throws Exception {
    Result result = start("-Dbulwark.rate-limit.partner-api.window=soon");
    assertThat(result.exited()).isTrue();
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output())
        .contains("dev.bulwark.sample.PartnerService#quote")
        .contains("member 'window'")
        .contains("'soon' is not a duration");
  }

  @Test
  void aPersistenceUnitTheApplicationDoesNotHaveStopsTheStartNamingTheKeyAndTheUnits()
      throws Exception {
    Result result = start("-Dquarkus.profile=jpa-h2", "-Dbulwark.jpa.persistence-unit=inventory");
    assertThat(result.exited()).isTrue();
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output())
        .contains("bulwark.jpa.persistence-unit=inventory")
        .contains(
            "the container offers no persistence unit of that name (it has [h2, postgresql])");
  }

  record Result(boolean exited, int exitCode, String output) {}

  /** Runs the application on a free port for at most 60 s; a healthy one is stopped then. */
  private static Result start(String... properties) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dquarkus.http.port=0");
    command.addAll(List.of(properties));
    command.add("-jar");
    command.add(JAR.toString());
    Path log = Files.createTempFile("sample-startup", ".log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      boolean exited = process.waitFor(60, TimeUnit.SECONDS);
      if (!exited) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      return new Result(
          exited, exited ? process.exitValue() : -1, Files.readString(log, StandardCharsets.UTF_8));
    } finally {
      process.destroyForcibly();
      Files.deleteIfExists(log);
    }
  }
}
