package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code accounts} lock: deposits (WRITE) to one account run one at a time, reads (READ) of one
 * account share, and nothing blocks another account. A caller waits up to 2 s, then gets 503.
 */
@QuarkusTest
class AccountLockTest {

  @TestHTTPResource("/")
  URI root;

  @Inject AccountService accounts;
  @Inject SlowDownstream downstream;

  private final List<String> heldKeys = new ArrayList<>();

  @AfterEach
  void releaseHeldCalls() {
    heldKeys.forEach(downstream::release);
  }

  @Test
  void depositsToOneAccountNeverOverlapAndTheirFencingTokensGrow() throws Exception {
    int deposits = 5;
    List<Future<HttpResponse<String>>> replies = new ArrayList<>();
    try (Http http = new Http(root, deposits)) {
      for (int i = 0; i < deposits; i++) {
        replies.add(http.post("/accounts/alice/deposits", "{\"amountCents\":100}"));
      }
      List<Long> tokens = new ArrayList<>();
      for (Future<HttpResponse<String>> reply : replies) {
        HttpResponse<String> response = reply.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        tokens.add(Http.json(response).get("fencingToken").asLong());
      }
      assertThat(tokens).doesNotHaveDuplicates().allMatch(t -> t > 0);
    }

    List<Interval> writes = calls("alice", "write");
    assertThat(writes).hasSize(deposits);
    for (int i = 1; i < writes.size(); i++) {
      Interval previous = writes.get(i - 1);
      Interval next = writes.get(i);
      assertThat(next.startNanos())
          .as("deposit %d starts after deposit %d ended", i, i - 1)
          .isGreaterThanOrEqualTo(previous.endNanos());
      assertThat(next.fencingToken()).isGreaterThan(previous.fencingToken());
    }
    // No deposit was lost, although each one reads, waits and writes the balance back.
    given().get("/accounts/alice").then().statusCode(200).body("balanceCents", is(deposits * 100));
  }

  @Test
  void aDepositDoesNotBlockAnotherAccount() throws Exception {
    hold(AccountService.writeKey("bob"));
    try (Http http = new Http(root, 1)) {
      Future<HttpResponse<String>> bob = http.post("/accounts/bob/deposits", "{\"amountCents\":7}");
      Http.awaitTrue(
          "bob's deposit holds its lock",
          () -> downstream.heldCalls(AccountService.writeKey("bob")) == 1);

      // Carol's deposit and read go through while bob's deposit is still in the middle.
      deposit("carol", 5).then().statusCode(200).body("balanceCents", is(5));
      given().get("/accounts/carol").then().statusCode(200).body("balanceCents", is(5));
      assertThat(bob).isNotDone();

      downstream.release(AccountService.writeKey("bob"));
      assertThat(bob.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
          .isEqualTo(200);
    }
    Interval bob = calls("bob", "write").get(0);
    Interval carol = calls("carol", "write").get(0);
    assertThat(carol.overlaps(bob)).as("carol's deposit ran during bob's").isTrue();
  }

  @Test
  void aSecondDepositOrAReadWaitsForTheWriterThenGets503() throws Exception {
    hold(AccountService.writeKey("dave"));
    try (Http http = new Http(root, 3)) {
      Future<HttpResponse<String>> first =
          http.post("/accounts/dave/deposits", "{\"amountCents\":1}");
      Http.awaitTrue(
          "the first deposit holds dave's lock",
          () -> downstream.heldCalls(AccountService.writeKey("dave")) == 1);

      long start = System.nanoTime();
      Future<HttpResponse<String>> second =
          http.post("/accounts/dave/deposits", "{\"amountCents\":2}");
      Future<HttpResponse<String>> read = http.get("/accounts/dave");
      for (Future<HttpResponse<String>> blocked : List.of(second, read)) {
        HttpResponse<String> response =
            blocked.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(response.headers().firstValue("Content-Type"))
            .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode body = Http.json(response);
        assertThat(body.get("type").asText())
            .isEqualTo("tag:bulwark.dev,2025:problem:lock-timeout");
        assertThat(body.get("limit").asText()).isEqualTo("accounts");
        // the lock key is the application's data: it stays out of the answer
        assertThat(response.body()).doesNotContain("dave");
      }
      // They gave up after the configured waiting time (2 s), not at once.
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(1900);

      downstream.release(AccountService.writeKey("dave"));
      assertThat(first.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
          .isEqualTo(200);
    }
    assertThat(calls("dave", "write")).hasSize(1);
    assertThat(calls("dave", "read")).isEmpty();
    given().get("/accounts/dave").then().statusCode(200).body("balanceCents", is(1));
  }

  @Test
  void readsShareTheLockButKeepADepositOut() throws Exception {
    hold(AccountService.readKey("erin"));
    try (Http http = new Http(root, 3)) {
      Future<HttpResponse<String>> read1 = http.get("/accounts/erin");
      Future<HttpResponse<String>> read2 = http.get("/accounts/erin");
      Http.awaitTrue(
          "both reads of erin are inside at once",
          () -> downstream.heldCalls(AccountService.readKey("erin")) == 2);

      deposit("erin", 3)
          .then()
          .statusCode(503)
          .body("type", is("tag:bulwark.dev,2025:problem:lock-timeout"));

      downstream.release(AccountService.readKey("erin"));
      assertThat(read1.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
          .isEqualTo(200);
      assertThat(read2.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
          .isEqualTo(200);
    }
    List<Interval> reads = calls("erin", "read");
    assertThat(reads).hasSize(2);
    assertThat(reads.get(0).overlaps(reads.get(1))).isTrue();
    assertThat(calls("erin", "write")).isEmpty();
    deposit("erin", 3).then().statusCode(200).body("balanceCents", is(3));
  }

  private void hold(String key) {
    heldKeys.add(key);
    downstream.hold(key);
  }

  private static io.restassured.response.Response deposit(String account, long cents) {
    return given()
        .contentType("application/json")
        .body("{\"amountCents\":" + cents + "}")
        .post("/accounts/{id}/deposits", account);
  }

  /** The recorded calls of one kind on one account, in the order they started. */
  private List<Interval> calls(String account, String kind) {
    return accounts.calls().stream()
        .filter(c -> c.key().equals(account) && c.kind().equals(kind))
        .sorted(Comparator.comparingLong(Interval::startNanos))
        .toList();
  }
}
