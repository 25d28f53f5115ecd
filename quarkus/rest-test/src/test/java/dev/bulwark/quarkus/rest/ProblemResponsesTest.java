package dev.bulwark.quarkus.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An application with quarkus-rest and bulwark-quarkus, which maps no exception itself: each
 * rejection is an HTTP answer a client can act on, an RFC 9457 problem naming the limit, logged at
 * DEBUG only.
 */
class ProblemResponsesTest {

  static final String TYPE = "tag:bulwark.dev,2025:problem:";

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(
              jar -> jar.addClasses(GuardedResource.class, Guarded.class, Gate.class, Held.class))
          .overrideConfigKey("quarkus.log.category.\"dev.bulwark.http\".level", "DEBUG")
          .setLogRecordPredicate(
              r ->
                  r.getLevel().intValue() >= Level.WARNING.intValue()
                      || r.getLoggerName().equals("dev.bulwark.http"))
          .assertLogRecords(
              records -> {
                assertThat(records)
                    .as("no ERROR (SEVERE) line: a rejection is not a server error")
                    .noneMatch(r -> r.getLevel().intValue() >= Level.SEVERE.intValue());
                assertThat(records)
                    .filteredOn(r -> r.getLoggerName().equals("dev.bulwark.http"))
                    .as("each rejection logged at DEBUG")
                    .isNotEmpty()
                    .allMatch(r -> r.getLevel().intValue() < Level.INFO.intValue())
                    .extracting(LogRecord::getMessage)
                    .anyMatch(m -> m.contains("503") && m.contains("'reports'"))
                    .anyMatch(m -> m.contains("429") && m.contains("'quotes'"));
              });

  @Inject Gate gate;

  @TestHTTPResource("/")
  URI root;

  @Test
  void aFullBulkheadIs503WithAProblemNamingIt() throws Exception {
    Held holder = Held.send("GET", root.resolve("report"));
    try {
      assertThat(gate.awaitEntered()).as("the first call holds the only permit").isTrue();

      Response rejected = given().get("/report");

      assertThat(rejected.statusCode()).isEqualTo(503);
      assertThat(rejected.contentType()).startsWith("application/problem+json");
      assertThat(rejected.header("Retry-After")).as("Bulwark cannot know when").isNull();
      JsonPath body = JsonPath.from(rejected.asString());
      assertThat(body.getString("type")).isEqualTo(TYPE + "bulkhead-full");
      assertThat(body.getString("title")).isEqualTo("Bulkhead full");
      assertThat(body.getInt("status")).isEqualTo(503);
      assertThat(body.getString("limit")).isEqualTo("reports");
      assertThat(body.getString("detail")).contains("'reports'");
    } finally {
      gate.open();
    }
    assertThat(holder.await().statusCode()).isEqualTo(200);
  }

  @Test
  void anExceededRateLimitIs429WithRetryAfterInWholeSeconds() {
    given().get("/quote").then().statusCode(200);

    Response rejected = given().get("/quote");

    assertThat(rejected.statusCode()).isEqualTo(429);
    assertThat(rejected.contentType()).startsWith("application/problem+json");
    // one permit an hour: the next one frees up within the hour, rounded up to whole seconds
    long retryAfter = Long.parseLong(rejected.header("Retry-After"));
    assertThat(retryAfter).isBetween(3000L, 3600L);
    JsonPath body = JsonPath.from(rejected.asString());
    assertThat(body.getString("type")).isEqualTo(TYPE + "rate-limited");
    assertThat(body.getInt("status")).isEqualTo(429);
    assertThat(body.getString("limit")).isEqualTo("quotes");
    assertThat(body.getLong("retryAfter")).isEqualTo(retryAfter);
  }

  @Test
  void aLockNotGrantedInTimeIs503AndKeepsTheKeyOut() throws Exception {
    Held holder = Held.send("POST", root.resolve("accounts/acct-7781"));
    try {
      assertThat(gate.awaitEntered()).as("the first call holds the lock").isTrue();

      Response rejected = given().post("/accounts/acct-7781");

      assertThat(rejected.statusCode()).isEqualTo(503);
      assertThat(rejected.contentType()).startsWith("application/problem+json");
      JsonPath body = JsonPath.from(rejected.asString());
      assertThat(body.getString("type")).isEqualTo(TYPE + "lock-timeout");
      assertThat(body.getString("limit")).isEqualTo("accounts");
      assertThat(rejected.asString()).doesNotContain("acct-7781");
    } finally {
      gate.open();
    }
    assertThat(holder.await().body()).isEqualTo("written acct-7781");
  }
}
