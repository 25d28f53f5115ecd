package dev.bulwark.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.tck.TestServices;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The packaged sample on each store profile starts, serves a guarded call and stops on SIGTERM with
 * no WARN or ERROR line in its log: a healthy run must not read as a failing one.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CleanLogIT {

  /** A log line at WARN or ERROR, in Quarkus' console format ("2026-01-01 10:00:00,000 WARN ["). */
  private static final Pattern WARN_OR_ERROR =
      Pattern.compile("^\\S+ \\S+ (WARN|ERROR) ", Pattern.MULTILINE);

  @Test
  void localStore() throws Exception {
    assertCleanRun("local", Map.of());
  }

  @Test
  @RequiresServer(TestServices.Service.REDIS)
  void redisStore() throws Exception {
    assertCleanRun(
        "redis",
        Map.of(
            "quarkus.profile", "redis",
            "bulwark.redis.url", TestServices.redis().url(),
            "bulwark.redis.key-prefix", "bulwark-sample-cleanlog:"));
  }

  @Test
  void jpaStoreOnAnH2File() throws Exception {
    Path file = Path.of("target", "cleanlog-h2-" + ProcessHandle.current().pid()).toAbsolutePath();
    try {
      // the profile's own URL, moved from the temp folder into target/
      assertCleanRun(
          "jpa-h2",
          Map.of("quarkus.profile", "jpa-h2", "java.io.tmpdir", file.getParent().toString()));
    } finally {
      Files.deleteIfExists(file.getParent().resolve("bulwark-sample-h2.mv.db"));
      Files.deleteIfExists(file.getParent().resolve("bulwark-sample-h2.lock.db"));
    }
  }

  @Test
  @RequiresServer(TestServices.Service.POSTGRESQL)
  void jpaStoreOnPostgresql() throws Exception {
    TestServices.Endpoint postgres = TestServices.postgresql();
    Map<String, String> properties = new HashMap<>();
    properties.put("quarkus.profile", "jpa-postgresql");
    properties.put("quarkus.datasource.postgresql.jdbc.url", postgres.url());
    properties.put("quarkus.datasource.postgresql.username", postgres.user());
    if (postgres.password() != null) {
      properties.put("quarkus.datasource.postgresql.password", postgres.password());
    }
    assertCleanRun("jpa-postgresql", properties);
  }

  private static void assertCleanRun(String name, Map<String, String> properties) throws Exception {
    SampleProcess sample = SampleProcess.start(name, properties);
    String log;
    try {
      HttpResponse<String> quote =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(sample.uri("/partner/quotes/sku-1"))
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(quote.statusCode()).as("a guarded call: %s", quote.body()).isEqualTo(200);
      log = sample.stop();
    } finally {
      sample.close();
    }
    System.out.println("---- the sample on " + name + ":\n" + log);
    assertThat(log).as("the sample stopped").contains("stopped in");
    List<String> noise =
        WARN_OR_ERROR.matcher(log).results().map(m -> line(log, m.start())).toList();
    assertThat(noise).as("WARN and ERROR lines of the sample on %s", name).isEmpty();
  }

  private static String line(String log, int start) {
    int end = log.indexOf('\n', start);
    return log.substring(start, end < 0 ? log.length() : end);
  }
}
