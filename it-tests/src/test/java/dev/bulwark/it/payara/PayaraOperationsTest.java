package dev.bulwark.it.payara;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.health.StoreReadiness;
import dev.bulwark.it.payara.app.BulkheadFullMapper;
import dev.bulwark.it.payara.app.BulwarkApplication;
import dev.bulwark.it.payara.app.Gate;
import dev.bulwark.it.payara.app.Gates;
import dev.bulwark.it.payara.app.GuardedResource;
import dev.bulwark.it.payara.app.GuardedService;
import dev.bulwark.it.payara.app.RateLimitMapper;
import dev.bulwark.metrics.mp.MpMetricsRecorder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.TestAbortedException;

/**
 * {@code bulwark-health} and {@code bulwark-metrics-mp} in a WAR on Payara Micro: Payara's own
 * MicroProfile Health and Metrics serve Bulwark's readiness check and metrics through HTTP.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PayaraOperationsTest {

  private static final String RATED = GuardedService.class.getName() + "#rated";

  private static MicroServer server;
  private static HttpClient client;
  private static TestAbortedException unavailable;

  @BeforeAll
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  static void deploy() throws Exception {
    Path jar;
    try {
      jar = MicroServer.jar();
    } catch (TestAbortedException e) {
      unavailable = e;
      return;
    }
    WebArchive war =
        BulwarkWar.create(
                "bulwark-ops",
                Map.of(),
                BulwarkApplication.class,
                GuardedResource.class,
                GuardedService.class,
                Gates.class,
                Gate.class,
                BulkheadFullMapper.class,
                RateLimitMapper.class)
            .addAsLibraries(
                BulwarkWar.library("bulwark-health", StoreReadiness.class),
                BulwarkWar.library("bulwark-metrics-mp", MpMetricsRecorder.class));
    Path file = BulwarkWar.export(war, PayaraMicroTest.workDirectory());
    client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    server = MicroServer.start(jar, file, "operations");
    server.awaitBoot(PayaraMicroTest.BOOT);
    server.awaitAnswer(client, "api/ping", PayaraMicroTest.WAIT);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void readinessCarriesTheStoreCheckAndMetricsCountTheCalls() throws Exception {
    if (unavailable != null) {
      throw unavailable;
    }
    assertThat(get(server.uri("api/rated/1")).statusCode()).isEqualTo(200);
    assertThat(get(server.uri("api/rated/2")).statusCode()).isEqualTo(200);

    HttpResponse<String> ready = get(root("health/ready"));
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    assertThat(ready.body().replaceAll("\\s", ""))
        .contains("\"name\":\"bulwark\"")
        .contains("\"store\":\"local\"")
        .contains("\"policy\":\"fail-closed\"");

    HttpResponse<String> metrics = get(root("metrics?scope=application"));
    assertThat(metrics.statusCode()).as(metrics.body()).isEqualTo(200);
    assertThat(metrics.body())
        .as(metrics.body())
        .containsPattern(
            "bulwark_calls_total\\{[^}]*name=\""
                + RATED.replace("$", "\\$")
                + "\"[^}]*result=\"granted\"[^}]*\\} 2(\\.0)?")
        .contains("bulwark_store_available{");
  }

  private static URI root(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + "/" + path);
  }

  private static HttpResponse<String> get(URI uri) throws Exception {
    return client.send(
        HttpRequest.newBuilder(uri).timeout(PayaraMicroTest.WAIT).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
