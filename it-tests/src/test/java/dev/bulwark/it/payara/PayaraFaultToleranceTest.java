package dev.bulwark.it.payara;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.payara.app.BulkheadFullMapper;
import dev.bulwark.it.payara.app.BulwarkApplication;
import dev.bulwark.it.payara.app.Gate;
import dev.bulwark.it.payara.app.Gates;
import dev.bulwark.it.payara.ft.Elsewhere;
import dev.bulwark.it.payara.ft.FtBulkheadMapper;
import dev.bulwark.it.payara.ft.FtResource;
import dev.bulwark.it.payara.ft.FtService;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.TestAbortedException;

/**
 * bulwark-fault-tolerance on Payara Micro 6, beside Payara's own MicroProfile FT: a WAR whose
 * {@code @Bulkhead} methods carry no Bulwark annotation, one of them made cluster-wide by config.
 * The HTTP status tells which bulkhead rejected: 503 is Bulwark's {@code BulkheadFullException},
 * 429 Payara's own {@code BulkheadException}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PayaraFaultToleranceTest {

  static final Duration BOOT = Duration.ofSeconds(120);
  static final Duration WAIT = Duration.ofSeconds(20);
  static final String SHARED = Elsewhere.SHARED;

  static MicroServer server;
  static HttpClient client;
  static TestAbortedException unavailable;

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
                "bulwark-payara-ft",
                Map.of(
                    "bulwark.fault-tolerance.bulkhead.distributed",
                    "true",
                    FtService.class.getName() + "/local/Bulkhead/distributed",
                    "false"),
                BulwarkApplication.class,
                FtResource.class,
                FtService.class,
                Elsewhere.class,
                Gates.class,
                Gate.class,
                BulkheadFullMapper.class,
                FtBulkheadMapper.class)
            .addAsLibraries(
                BulwarkWar.library(
                    "bulwark-fault-tolerance",
                    dev.bulwark.faulttolerance.FaultToleranceBridge.class));
    Path file = BulwarkWar.export(war, PayaraMicroTest.workDirectory());
    client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    server = MicroServer.start(jar, file, "fault-tolerance");
    server.awaitBoot(BOOT);
    server.awaitAnswer(client, "api/ping", WAIT);
  }

  @BeforeEach
  void requirePayara() {
    if (unavailable != null) {
      throw unavailable;
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aMappedBulkheadIsCappedByBulwarkInsidePayarasOwn() throws Exception {
    String gate = "shared";
    // another JVM holds one of the cluster's two permits
    assertThat(send("POST", "api/elsewhere/hold").get(WAIT.toSeconds(), TimeUnit.SECONDS).body())
        .isEqualTo("held");
    CompletableFuture<HttpResponse<String>> holder = send("GET", "api/shared/" + gate + "/0");
    HttpResponse<String> rejected;
    try {
      awaitEntered(gate, 1);
      // Payara's bulkhead of 2 has room for a second call; the cluster's, at 2, does not
      rejected = send("GET", "api/shared/" + gate + "/1").get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } finally {
      send("POST", "api/gates/" + gate + "/open").get(WAIT.toSeconds(), TimeUnit.SECONDS);
      send("POST", "api/elsewhere/release").get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(503);
    // the WAR's own mapper of BulkheadFullException (text/plain), not bulwark-cdi's problem+json:
    // an application's mapper of the same exception wins
    assertThat(rejected.body()).startsWith("BulkheadFullException").contains(SHARED);
    assertThat(rejected.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    HttpResponse<String> held = holder.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(held.body()).isEqualTo("ran 0");
    assertThat(record(gate)).isEqualTo("entered=1,inside=0,max=1");
  }

  @Test
  void aBulkheadKeptPerJvmIsPayarasAlone() throws Exception {
    String gate = "local";
    CompletableFuture<HttpResponse<String>> holder = send("GET", "api/local/" + gate + "/0");
    HttpResponse<String> rejected;
    try {
      awaitEntered(gate, 1);
      rejected = send("GET", "api/local/" + gate + "/1").get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } finally {
      send("POST", "api/gates/" + gate + "/open").get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(429);
    assertThat(holder.get(WAIT.toSeconds(), TimeUnit.SECONDS).body()).isEqualTo("ran 0");
  }

  @Test
  void theStartupTableListsTheMappedLimitWithItsSources() {
    String line =
        server
            .log()
            .lines()
            .filter(l -> l.trim().startsWith("bulkhead") && l.contains(SHARED))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no table line for " + SHARED + server.tail()));
    assertThat(line).contains("value=2 (@Bulkhead)").contains("waitingTime=0 (@Bulkhead)");
    assertThat(server.log()).doesNotContain(FtService.class.getName() + "#local");
  }

  private static CompletableFuture<HttpResponse<String>> send(String method, String path) {
    return client.sendAsync(
        HttpRequest.newBuilder(server.uri(path))
            .timeout(Duration.ofSeconds(90))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String record(String gate) throws Exception {
    return send("GET", "api/gates/" + gate).get(WAIT.toSeconds(), TimeUnit.SECONDS).body();
  }

  /** Polls the gate, bounded, until {@code count} calls entered it. */
  private static void awaitEntered(String gate, int count) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String last = record(gate);
    while (!last.startsWith("entered=" + count + ",")) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("gate " + gate + " never had " + count + " inside: " + last);
      }
      Thread.sleep(20);
      last = record(gate);
    }
  }
}
