package dev.bulwark.quarkus.deployment.devui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.quarkus.deployment.devservices.RedisServers;
import io.quarkus.test.QuarkusDevModeTest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Dev UI page in a real browser: a dev-mode application with {@code bulwark.store=redis} and no
 * Redis configured (Dev Services start one), headless Chromium loads Bulwark's page, and finds the
 * limits with their effective values and sources, and live holders of a bulkhead and of a lock key
 * while the test holds those calls open, and a queued call's row; once released, the holders and
 * the queue go.
 */
@EnabledIf(
    value = "browserAndRedisServer",
    disabledReason =
        "needs Debian's chromium and chromium-driver (/usr/bin/chromium,"
            + " /usr/bin/chromedriver; .ci/run installs them) and a redis-server on the PATH")
class LimitsPageBrowserTest {

  private static final int PORT = freePort();
  private static final Pattern STORE_INSTANCE = Pattern.compile("\\b[0-9a-f]{16}\\b");
  private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d");

  /** Finds the page's component through the Dev UI's shadow roots. */
  private static final String FIND_PAGE =
      """
      const find = root => {
        const found = root.querySelector('qwc-bulwark-limits');
        if (found) return found;
        for (const element of root.querySelectorAll('*')) {
          if (element.shadowRoot) {
            const inner = find(element.shadowRoot);
            if (inner) return inner;
          }
        }
        return null;
      };
      const page = find(document);
      """;

  /** The page's limits as the browser shows them. */
  private static final String READ_LIMITS =
      FIND_PAGE
          + """
      if (!page || !page.shadowRoot) return null;
      return Array.from(page.shadowRoot.querySelectorAll('.limit')).map(limit => ({
        kind: limit.dataset.kind,
        name: limit.dataset.name,
        text: limit.innerText,
        holders: Array.from(limit.querySelectorAll('tr.holder')).map(row => row.innerText),
        waiting: Array.from(limit.querySelectorAll('tr.waiter')).map(row => row.innerText)
      }));
      """;

  /** Types a key into a lock's field and presses its "Inspect key" button. */
  private static final String INSPECT_KEY =
      FIND_PAGE
          + """
      const input = page.shadowRoot.querySelector('#key-' + CSS.escape(arguments[0]));
      input.value = arguments[1];
      input.parentElement.querySelector('button').click();
      """;

  @RegisterExtension
  static final QuarkusDevModeTest APP =
      new QuarkusDevModeTest()
          .withApplicationRoot(
              archive ->
                  archive
                      .addClasses(HeldCalls.class, HoldRoutes.class)
                      .addAsResource(
                          new StringAsset(
                              String.join(
                                  "\n",
                                  "quarkus.http.port=" + PORT,
                                  "bulwark.store=redis",
                                  "bulwark.redis.key-prefix=bulwark-devui-test:",
                                  "bulwark.bulkhead.browser-bulkhead.lease=20s")),
                          "application.properties"));

  static boolean browserAndRedisServer() {
    return Browser.installed() && RedisServers.onPath().isPresent();
  }

  @Test
  void showsTheLimitsAndTheirLiveHolders() throws Exception {
    assertThat(get("/hold")).isEqualTo("held");
    ChromeDriver browser = Browser.start();
    try {
      browser.get("http://localhost:" + PORT + "/q/dev-ui/bulwark-quarkus/limits");
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));

      List<Map<String, Object>> held =
          wait.until(
              b -> {
                List<Map<String, Object>> limits = limits(browser);
                return holders(limits, "browser-bulkhead").size() == 1
                        && holders(limits, "browser-lock").size() == 1
                        && waiting(limits, "browser-queue").size() == 1
                    ? limits
                    : null;
              });
      saveScreenshot(browser, "devui-limits-held.png");

      Map<String, Object> bulkhead = limit(held, "browser-bulkhead").orElseThrow();
      assertThat(bulkhead.get("kind")).isEqualTo("bulkhead");
      assertThat((String) bulkhead.get("text"))
          .contains(HeldCalls.class.getName() + "#bulkhead")
          .contains("value=3")
          .contains("(annotation)")
          .contains("lease=20s")
          .contains("(bulwark.bulkhead.browser-bulkhead.lease)")
          .contains("available 2")
          .contains("queued 0");
      String bulkheadHolder = holders(held, "browser-bulkhead").get(0);
      assertThat(bulkheadHolder).containsPattern(STORE_INSTANCE).containsPattern(INSTANT);

      String lockHolder = holders(held, "browser-lock").get(0);
      assertThat(lockHolder)
          .contains("acct-42")
          .contains("writer")
          .containsPattern(STORE_INSTANCE)
          .containsPattern(INSTANT);

      // the queue's waiter has a row like a holder: its JVM, request and lease
      assertThat((String) limit(held, "browser-queue").orElseThrow().get("text"))
          .contains("available 0")
          .contains("queued 1");
      assertThat(holders(held, "browser-queue")).hasSize(1);
      assertThat(waiting(held, "browser-queue").get(0))
          .containsPattern(STORE_INSTANCE)
          .containsPattern(INSTANT);

      Map<String, Object> rate = limit(held, "browser-rate").orElseThrow();
      assertThat((String) rate.get("text")).contains("value=50").contains("limit 50");

      assertThat(get("/release")).isEqualTo("released");
      List<Map<String, Object>> released =
          wait.until(
              b -> {
                List<Map<String, Object>> limits = limits(browser);
                return limit(limits, "browser-bulkhead").isPresent()
                        && holders(limits, "browser-bulkhead").isEmpty()
                        && holders(limits, "browser-lock").isEmpty()
                        && waiting(limits, "browser-queue").isEmpty()
                    ? limits
                    : null;
              });
      assertThat((String) limit(released, "browser-bulkhead").orElseThrow().get("text"))
          .contains("available 3")
          .contains("No holder.");
      assertThat((String) limit(released, "browser-lock").orElseThrow().get("text"))
          .contains("acct-42")
          .contains("free");

      // a key this JVM never locked: the page asks the store for it (a store cannot list keys)
      browser.executeScript(INSPECT_KEY, "browser-lock", "acct-7");
      String inspected =
          wait.until(
              b -> {
                String text =
                    limit(limits(browser), "browser-lock")
                        .map(l -> (String) l.get("text"))
                        .orElse("");
                return text.contains("acct-7") ? text : null;
              });
      assertThat(inspected).contains("acct-7").contains("acct-42");
    } finally {
      get("/release");
      browser.quit();
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> limits(ChromeDriver browser) {
    Object read = browser.executeScript(READ_LIMITS);
    return read == null ? List.of() : (List<Map<String, Object>>) read;
  }

  private static Optional<Map<String, Object>> limit(
      List<Map<String, Object>> limits, String name) {
    return limits.stream().filter(l -> name.equals(l.get("name"))).findFirst();
  }

  @SuppressWarnings("unchecked")
  private static List<String> holders(List<Map<String, Object>> limits, String name) {
    return limit(limits, name).map(l -> (List<String>) l.get("holders")).orElse(List.of());
  }

  @SuppressWarnings("unchecked")
  private static List<String> waiting(List<Map<String, Object>> limits, String name) {
    return limit(limits, name).map(l -> (List<String>) l.get("waiting")).orElse(List.of());
  }

  private static String get(String path) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + path))
            .timeout(Duration.ofSeconds(40))
            .build();
    return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
  }

  private static void saveScreenshot(ChromeDriver browser, String name) throws IOException {
    Path target = Path.of("target", name);
    Files.write(target, browser.getScreenshotAs(OutputType.BYTES));
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("No free port", e);
    }
  }
}
