package dev.bulwark.quarkus.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import io.quarkus.test.QuarkusDevModeTest;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dev mode with {@code bulwark.store=redis}, no Redis set and a {@code redis-server} on the PATH,
 * on a machine without a container runtime: the start and a live reload log no WARN or ERROR.
 * Quarkus' Dev Services console asks about containers for the started server; unanswered first,
 * that question logged Testcontainers' "Could not find a valid Docker environment" ERROR each time.
 */
@EnabledIf(
    value = "dev.bulwark.quarkus.deployment.devservices.RedisServers#onPathOrCi",
    disabledReason =
        "no redis-server on the PATH (install Debian's redis-server; under CI=true"
            + " this test runs and fails instead)")
class DevModeQuietStartTest {

  private static final int PORT = freePort();

  @RegisterExtension
  static final QuarkusDevModeTest APP =
      new QuarkusDevModeTest()
          .withApplicationRoot(
              archive ->
                  archive
                      .addClasses(Guarded.class, Routes.class)
                      .addAsResource(
                          new StringAsset(
                              String.join(
                                  "\n",
                                  "quarkus.http.port=" + PORT,
                                  "bulwark.store=redis",
                                  "bulwark.redis.key-prefix=bulwark-quiet-test:",
                                  "greeting=one")),
                          "application.properties"))
          .setLogRecordPredicate(
              record -> record.getLevel().intValue() >= Level.WARNING.intValue());

  @Test
  void startAndReloadLogNoWarningOrError() throws Exception {
    assertThat(get("/guarded")).isEqualTo("one");
    assertThat(lines(APP.getLogRecords())).as("WARN and ERROR lines of the start").isEmpty();

    APP.modifyResourceFile("application.properties", text -> text.replace("=one", "=two"));
    assertThat(get("/guarded")).as("answered by the reloaded application").isEqualTo("two");
    assertThat(lines(APP.getLogRecords())).as("WARN and ERROR lines of the reload").isEmpty();
  }

  /**
   * ArC's own warning at a reload, on a class of an API jar annotated with OSGi's (absent)
   * annotations; not Bulwark's, and left for Quarkus.
   */
  private static final String ARC_OSGI_WARNING =
      "[io.quarkus.arc.processor.BeanArchives] Failed to index org.osgi.annotation.";

  private static List<String> lines(List<LogRecord> records) {
    return records.stream()
        .map(
            r ->
                r.getLevel()
                    + " ["
                    + r.getLoggerName()
                    + "] "
                    + (r.getParameters() == null
                        ? r.getMessage()
                        : String.format(r.getMessage(), r.getParameters())))
        .filter(line -> !line.contains(ARC_OSGI_WARNING))
        .toList();
  }

  private static String get(String path) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + path))
            .timeout(Duration.ofSeconds(60))
            .build();
    return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("No free port", e);
    }
  }

  @ApplicationScoped
  public static class Guarded {
    @DistributedBulkhead(name = "quiet", value = 2)
    public String greet() {
      // read here, not injected: an injected @ConfigProperty makes ArC look up the OSGi
      // annotations on it at a reload and warn that they are absent, which is Quarkus' own noise
      return ConfigProvider.getConfig().getValue("greeting", String.class);
    }
  }

  @ApplicationScoped
  public static class Routes {
    @Inject Guarded guarded;

    void routes(@Observes Router router) {
      router.get("/guarded").blockingHandler(context -> context.end(guarded.greet()));
    }
  }
}
