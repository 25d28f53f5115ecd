package dev.bulwark.it.payara;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.payara.app.BulwarkApplication;
import dev.bulwark.it.payara.invalid.PingResource;
import dev.bulwark.it.payara.invalid.ZeroConfigured;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * On Payara Micro, an invalid value in the WAR's MicroProfile Config fails the deployment with a
 * {@code DefinitionException} naming the method, the member and the config key, not the first call.
 * Payara Micro itself keeps running after a failed {@code --deploy}: "fails" is Payara's SEVERE
 * "Exception while loading the app" carrying Bulwark's message, an empty "Deployed" list, and the
 * application's endpoints answering 404.
 */
class PayaraInvalidConfigTest {

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void aZeroValueFromConfigFailsTheDeployment() throws Exception {
    Path jar = MicroServer.jar();
    Path war =
        BulwarkWar.export(
            BulwarkWar.create(
                "bulwark-invalid",
                Map.of("bulwark.bulkhead.x.value", "0"),
                BulwarkApplication.class,
                PingResource.class,
                ZeroConfigured.class),
            PayaraMicroTest.workDirectory());

    try (MicroServer server = MicroServer.start(jar, war, "invalid")) {
      long bootMillis = server.awaitBoot(PayaraMicroTest.BOOT);
      HttpClient client =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      HttpResponse<String> ping =
          client.send(
              HttpRequest.newBuilder(server.uri("api/ping"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      String log = server.log();
      String definitionError =
          log.lines()
              .filter(l -> l.startsWith("jakarta.enterprise.inject.spi.DefinitionException"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no DefinitionException logged:\n" + log));
      System.out.printf(
          "invalid config on Payara: booted in %d ms, /api/ping %d, alive %b%n  %s%n",
          bootMillis, ping.statusCode(), server.isAlive(), definitionError);

      assertThat(definitionError)
          .contains(ZeroConfigured.class.getName() + "#work")
          .contains("'value'")
          .contains("bulwark.bulkhead.x.value");
      assertThat(log)
          .contains("Exception while loading the app")
          .doesNotContain("bulwark-invalid was successfully deployed")
          .doesNotContain("BULWARK0401");
      assertThat(ping.statusCode()).as("the application is not deployed").isEqualTo(404);
    }
  }
}
