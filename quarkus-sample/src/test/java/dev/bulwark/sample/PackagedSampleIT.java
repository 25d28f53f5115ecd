package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * The packaged sample (quarkus-run.jar, as a native image would be launched) started by Quarkus'
 * own integration-test support: the extension's build output runs as a process of its own, with its
 * limits, its readiness check and its meters.
 */
@QuarkusIntegrationTest
class PackagedSampleIT {

  @Test
  void theGuardedEndpointsAnswerUnderTheirLimits() {
    given().get("/partner/quotes/sku-7").then().statusCode(200);
    given()
        .get("/bulwark/limits")
        .then()
        .statusCode(200)
        .body("name", hasItem("legacy-api"))
        .body("find { it.name == 'partner-api' }.values.value", is("5"));
  }

  @Test
  void theReadinessCheckAndTheMetersArePresent() {
    given().get("/partner/quotes/sku-8").then().statusCode(200);
    given()
        .get("/q/health/ready")
        .then()
        .statusCode(200)
        .body("checks.find { it.name == 'bulwark' }.status", is("UP"));
    given().get("/q/metrics").then().statusCode(200).body(containsString("bulwark_calls_total"));
  }
}
