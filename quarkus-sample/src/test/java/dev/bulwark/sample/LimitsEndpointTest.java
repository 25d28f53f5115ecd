package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code GET /bulwark/limits}: every limit with its values, counts and state in the store. */
@QuarkusTest
class LimitsEndpointTest {

  private static final String LEGACY = "find { it.name == 'legacy-api' }";

  @TestHTTPResource("/")
  URI root;

  @Inject SlowDownstream downstream;

  @Test
  void aRunningCallShowsAsAHolderOfTheBulkhead() throws Exception {
    downstream.hold(LegacyService.DOWNSTREAM);
    try (Http http = new Http(root, 1)) {
      Future<HttpResponse<String>> call = http.get("/legacy/report?customer=limits");
      Http.awaitTrue(
          "the call holds its permit", () -> downstream.heldCalls(LegacyService.DOWNSTREAM) == 1);

      given()
          .get("/bulwark/limits")
          .then()
          .statusCode(200)
          .body(LEGACY + ".kind", is("bulkhead"))
          .body(LEGACY + ".values.value", is("2"))
          .body(LEGACY + ".cluster.limit", is(2))
          .body(LEGACY + ".cluster.holders", hasSize(1))
          .body(LEGACY + ".cluster.holders[0].instance", is("local"))
          .body(LEGACY + ".cluster.holders[0].since", notNullValue())
          .body(LEGACY + ".cluster.available", is(1))
          .body(LEGACY + ".cluster.queued", is(0));

      downstream.release(LegacyService.DOWNSTREAM);
      call.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      downstream.release(LegacyService.DOWNSTREAM);
    }
    given()
        .get("/bulwark/limits")
        .then()
        .body(LEGACY + ".cluster.holders", hasSize(0))
        .body(LEGACY + ".cluster.available", is(2))
        .body("find { it.name == 'partner-api' }.cluster.limit", is(5))
        .body("find { it.name == 'accounts' }.kind", is("lock"))
        .body("find { it.name == 'accounts' }.cluster", nullValue());
  }

  @Test
  void aLockKeyShowsItsWriter() throws Exception {
    String key = AccountService.writeKey("frank");
    downstream.hold(key);
    try (Http http = new Http(root, 1)) {
      Future<HttpResponse<String>> deposit =
          http.post("/accounts/frank/deposits", "{\"amountCents\":1}");
      Http.awaitTrue("the deposit holds its lock", () -> downstream.heldCalls(key) == 1);

      given()
          .get("/bulwark/limits/lock/accounts/frank")
          .then()
          .statusCode(200)
          .body("name", is("accounts"))
          .body("key", is("frank"))
          .body("writer.instance", is("local"))
          .body("readers", hasSize(0))
          .body("queued", equalTo(0));

      downstream.release(key);
      deposit.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      downstream.release(key);
    }
    given().get("/bulwark/limits/lock/accounts/frank").then().body("writer", nullValue());
  }
}
