package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** {@code /q/health/ready} carries Bulwark's store check: the local store is always ready. */
@QuarkusTest
class HealthEndpointTest {

  @Test
  void readinessShowsTheStoreUpWithItsPolicy() {
    given()
        .get("/q/health/ready")
        .then()
        .statusCode(200)
        .body("status", is("UP"))
        .body("checks.name", hasItem("bulwark"))
        .body("checks.find { it.name == 'bulwark' }.status", is("UP"))
        .body("checks.find { it.name == 'bulwark' }.data.store", is("local"))
        .body("checks.find { it.name == 'bulwark' }.data.policy", is("fail-closed"))
        .body("checks.find { it.name == 'bulwark' }.data.reachable", is(true));
  }
}
