package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code partner-api} allows 5 calls per second (from application.properties; the annotation says
 * 100 a minute), smooth: a burst of 5, then one permit every 200 ms.
 */
@QuarkusTest
class PartnerRateLimitTest {

  private static final int BURST = 5;
  private static final long EMISSION_INTERVAL_MILLIS = 1000 / BURST;
  private static final int MAX_EXTRA_CALLS = 50;

  @Inject PartnerService partner;

  @Test
  void aBurstOfFiveSucceedsThenTooManyRequestsWithRetryAfter() throws Exception {
    // Open the HTTP connection on an unguarded endpoint, so the burst below runs at full speed.
    given().get("/legacy/stats").then().statusCode(200);
    long partnerCallsBefore = partner.calls();

    long start = System.nanoTime();
    for (int i = 0; i < BURST; i++) {
      given().get("/partner/quotes/sku-" + i).then().statusCode(200);
    }
    // Keep calling until the limit says no. A permit comes back every 200 ms, so calls that
    // arrive faster than that soon run out; the ones that got through must fit the rate.
    int extraAdmitted = 0;
    Response rejected = null;
    while (rejected == null && extraAdmitted < MAX_EXTRA_CALLS) {
      Response response = given().get("/partner/quotes/extra");
      if (response.statusCode() == 429) {
        rejected = response;
      } else {
        assertThat(response.statusCode()).isEqualTo(200);
        extraAdmitted++;
      }
    }
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(rejected)
        .as(
            "a 429 once the burst is used up (%d extra calls got through in %d ms)",
            extraAdmitted, elapsedMillis)
        .isNotNull();
    assertThat(extraAdmitted)
        .as("calls admitted beyond the burst in %d ms", elapsedMillis)
        .isLessThanOrEqualTo((int) (elapsedMillis / EMISSION_INTERVAL_MILLIS) + 1);
    assertThat(partner.calls() - partnerCallsBefore).isEqualTo(BURST + extraAdmitted);

    // The 429 says when to come back: at most one emission interval away, in whole seconds.
    String retryAfter = rejected.header("Retry-After");
    assertThat(retryAfter).isEqualTo("1");
    assertThat(rejected.contentType()).startsWith("application/problem+json");
    assertThat(rejected.jsonPath().getString("type"))
        .isEqualTo("tag:bulwark.dev,2025:problem:rate-limited");
    assertThat(rejected.jsonPath().getString("limit")).isEqualTo("partner-api");

    // Coming back after Retry-After gets a permit.
    Thread.sleep(TimeUnit.SECONDS.toMillis(Long.parseLong(retryAfter)));
    given().get("/partner/quotes/later").then().statusCode(200);
  }
}
