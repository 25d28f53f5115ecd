package dev.bulwark.quarkus.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code bulwark.http.problem-responses=false}: Bulwark maps nothing; the runtime's 500 stays. */
class ProblemResponsesOffTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(
              jar -> jar.addClasses(GuardedResource.class, Guarded.class, Gate.class, Held.class))
          .overrideConfigKey("bulwark.http.problem-responses", "false");

  @Test
  void anExceededRateLimitIsLeftToTheRuntime() {
    given().get("/quote").then().statusCode(200);

    Response rejected = given().get("/quote");

    assertThat(rejected.statusCode()).isEqualTo(500);
    assertThat(rejected.header("Retry-After")).isNull();
    assertThat(String.valueOf(rejected.contentType())).doesNotContain("problem+json");
  }
}
