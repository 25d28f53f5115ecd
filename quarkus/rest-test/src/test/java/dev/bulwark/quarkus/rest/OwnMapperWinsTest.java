package dev.bulwark.quarkus.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An application that maps a Bulwark exception itself keeps its answer: Bulwark's mapper of the
 * same exception has the lower priority. The exceptions it does not map still get Bulwark's.
 */
class OwnMapperWinsTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(
              jar ->
                  jar.addClasses(
                      GuardedResource.class,
                      Guarded.class,
                      Gate.class,
                      Held.class,
                      OwnBulkheadMapper.class,
                      OwnRateLimitMapper.class));

  @Inject Gate gate;

  @TestHTTPResource("/")
  URI root;

  @Test
  void anExceptionMapperOfTheApplicationAnswersAFullBulkhead() throws Exception {
    Held holder = Held.send("GET", root.resolve("report"));
    try {
      assertThat(gate.awaitEntered()).isTrue();

      Response rejected = given().get("/report");

      assertThat(rejected.statusCode()).isEqualTo(509);
      assertThat(rejected.asString()).isEqualTo("own: reports");
    } finally {
      gate.open();
    }
    assertThat(holder.await().statusCode()).isEqualTo(200);
  }

  @Test
  void aServerExceptionMapperOfTheApplicationAnswersAnExceededRateLimit() {
    given().get("/quote").then().statusCode(200);

    Response rejected = given().get("/quote");

    assertThat(rejected.statusCode()).isEqualTo(420);
    assertThat(rejected.asString()).isEqualTo("own: quotes");
  }

  @Test
  void anExceptionTheApplicationDoesNotMapGetsBulwarksAnswer() throws Exception {
    Held holder = Held.send("POST", root.resolve("accounts/a"));
    try {
      assertThat(gate.awaitEntered()).isTrue();

      Response rejected = given().post("/accounts/a");

      assertThat(rejected.statusCode()).isEqualTo(503);
      assertThat(rejected.contentType()).startsWith("application/problem+json");
    } finally {
      gate.open();
    }
    assertThat(holder.await().statusCode()).isEqualTo(200);
  }
}
