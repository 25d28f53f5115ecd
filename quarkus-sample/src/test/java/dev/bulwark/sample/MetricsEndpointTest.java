package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Bulwark;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /q/metrics} (Prometheus) counts the calls the sample's limits saw, exactly, and times
 * them. Other tests share the application, so each check compares two scrapes around its calls.
 */
@QuarkusTest
class MetricsEndpointTest {

  @Inject Bulwark bulwark;

  /** Other tests expect partner-api's full burst: wait until the calls made here are regained. */
  @AfterEach
  void letPartnerApiRecover() throws InterruptedException {
    Http.awaitTrue(
        "partner-api has its burst of 5 again",
        () -> bulwark.rateLimiter("partner-api").inspect().available() == 5);
  }

  private static final String LEGACY = "kind=\"bulkhead\",name=\"legacy-api\"";
  private static final String PARTNER = "kind=\"rate-limit\",name=\"partner-api\"";

  @Test
  void aBulkheadCallIsCountedAndItsWaitAndHoldAreTimed() {
    Scrape before = Scrape.now();
    given().get("/legacy/report?customer=metrics").then().statusCode(200);
    Scrape after = Scrape.now();

    String granted = "bulwark_calls_total{" + LEGACY + ",reason=\"none\",result=\"granted\"}";
    assertThat(after.present(granted) - before.value(granted)).isEqualTo(1);
    String waits = "bulwark_wait_time_seconds_count{" + LEGACY + ",result=\"granted\"}";
    assertThat(after.present(waits) - before.value(waits)).isEqualTo(1);
    String holds = "bulwark_hold_time_seconds_count{" + LEGACY + "}";
    assertThat(after.present(holds) - before.value(holds)).isEqualTo(1);
    String held = "bulwark_hold_time_seconds_sum{" + LEGACY + "}";
    assertThat(after.present(held) - before.value(held))
        .as("the call takes 100 ms in the test profile")
        .isGreaterThanOrEqualTo(0.1);
    assertThat(after.present("bulwark_running{" + LEGACY + "}")).isZero();
    assertThat(after.present("bulwark_limit{" + LEGACY + "}")).isEqualTo(2);
    assertThat(after.present("bulwark_store_available{store=\"local\"}")).isEqualTo(1);
  }

  @Test
  void rateLimitGrantsAndRejectionsAreCountedOneForOne() {
    Scrape before = Scrape.now();
    int ok = 0;
    int tooMany = 0;
    for (int i = 0; i < 12; i++) {
      int status = given().get("/partner/quotes/metrics-" + i).statusCode();
      assertThat(status).isIn(200, 429);
      if (status == 200) {
        ok++;
      } else {
        tooMany++;
      }
    }
    Scrape after = Scrape.now();

    String granted = "bulwark_calls_total{" + PARTNER + ",reason=\"none\",result=\"granted\"}";
    String rejected = "bulwark_calls_total{" + PARTNER + ",reason=\"full\",result=\"rejected\"}";
    assertThat(after.present(granted) - before.value(granted)).isEqualTo(ok);
    assertThat(after.value(rejected) - before.value(rejected)).isEqualTo(tooMany);
    assertThat(after.present("bulwark_limit{" + PARTNER + "}")).isEqualTo(5);
  }
}
