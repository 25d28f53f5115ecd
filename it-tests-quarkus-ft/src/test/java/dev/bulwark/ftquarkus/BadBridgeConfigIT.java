package dev.bulwark.ftquarkus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The packaged application, started as its own process: on Quarkus the bridge binds the FT methods
 * at build time and maps them from config when the application starts, so a bridge config that
 * cannot be mapped must stop that start, naming the method and the key. The same application with
 * its own config starts, so what stops it is the bad key.
 */
@Tag("packaged-application")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class BadBridgeConfigIT {

  private static final Path JAR = Path.of(System.getProperty("ft.app.jar"));

  /** Bounds a start on a loaded machine; a failing start ends long before. */
  private static final long START_SECONDS = 120;

  private static final String QUOTE = Reports.class.getName() + "#quote";

  @Test
  void theApplicationStartsWithItsOwnConfig() throws Exception {
    Result result = start();
    assertThat(result.started()).as("started; output:%n%s", result.output()).isTrue();
  }

  /** {@code quote} is cluster-wide by the application's config; SmallRye's spacing is not. */
  @Test
  void aMinimumSpacingOfAClusterWideRateLimitStopsTheStartNamingMethodAndKey() throws Exception {
    String key = Reports.class.getName() + "/quote/RateLimit/minSpacing";
    Result result = start("-D" + key + "=100");
    assertStopped(result);
    assertThat(result.output())
        .contains(
            "Cannot make @RateLimit on " + QUOTE + " cluster-wide: minSpacing = 100 (from " + key);
  }

  /**
   * {@code capped} is cluster-wide by the application's config, its cap FT's value: a value key of
   * FT's that is not a number stops the start, as it would stop FT's.
   */
  @Test
  void anFtValueKeyThatIsNotANumberStopsTheStartNamingMethodAndKey() throws Exception {
    String key = Reports.class.getName() + "/capped/Bulkhead/value";
    Result result = start("-D" + key + "=ten");
    assertStopped(result);
    assertThat(result.output())
        .contains(
            "Invalid @Bulkhead on "
                + Reports.class.getName()
                + "#capped: config key '"
                + key
                + "' = 'ten' is not a whole number");
  }

  /** A bridge key of MicroProfile FT's style whose value is not a boolean. */
  @Test
  void aDistributedKeyThatIsNotABooleanStopsTheStartNamingMethodAndKey() throws Exception {
    String key = Reports.class.getName() + "/perJvm/Bulkhead/distributed";
    Result result = start("-D" + key + "=maybe");
    assertStopped(result);
    assertThat(result.output())
        .contains(
            "Invalid @Bulkhead on "
                + Reports.class.getName()
                + "#perJvm: config key '"
                + key
                + "' = 'maybe' is not true or false");
  }

  private static void assertStopped(Result result) {
    assertThat(result.started()).as("started; output:%n%s", result.output()).isFalse();
    assertThat(result.exited()).as("the application stops by itself").isTrue();
    assertThat(result.exitCode()).isNotZero();
  }

  /**
   * @param started whether Quarkus logged that it started
   * @param exited whether the process ended by itself
   */
  record Result(boolean started, boolean exited, int exitCode, String output) {}

  /**
   * Runs the application until it logs that it started (then stops it), ends by itself, or {@link
   * #START_SECONDS} pass.
   */
  private static Result start(String... properties) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(properties));
    command.add("-jar");
    command.add(JAR.toString());
    Path log = Files.createTempFile("ft-startup", ".log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
      boolean started = false;
      boolean exited = false;
      while (!started && !exited && System.nanoTime() < deadline) {
        exited = process.waitFor(200, TimeUnit.MILLISECONDS);
        started = Files.readString(log, StandardCharsets.UTF_8).contains(" started in ");
      }
      return new Result(
          started,
          exited,
          exited ? process.exitValue() : -1,
          Files.readString(log, StandardCharsets.UTF_8));
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      Files.deleteIfExists(log);
    }
  }
}
