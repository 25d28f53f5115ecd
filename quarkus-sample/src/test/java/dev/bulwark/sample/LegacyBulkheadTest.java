package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code legacy-api} is a bulkhead of 2 (from application.properties; the annotation says 10). */
@QuarkusTest
class LegacyBulkheadTest {

  private static final int LIMIT = 2;
  private static final int CALLERS = 7;

  @TestHTTPResource("/")
  URI root;

  @Inject LegacyService legacy;
  @Inject SlowDownstream downstream;

  @AfterEach
  void releaseHeldCalls() {
    downstream.release(LegacyService.DOWNSTREAM);
  }

  @Test
  void twoCallsRunAtOnceAndTheOthersGet503() throws Exception {
    // The legacy backend answers nobody until we say so: whoever gets a permit keeps it.
    downstream.hold(LegacyService.DOWNSTREAM);

    ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
    try (Http http = new Http(root, CALLERS)) {
      CompletionService<HttpResponse<String>> replies = new ExecutorCompletionService<>(callers);
      CountDownLatch start = new CountDownLatch(1);
      for (int i = 0; i < CALLERS; i++) {
        String path = "/legacy/report?customer=c" + i;
        replies.submit(
            () -> {
              start.await();
              return http.get(path).get();
            });
      }
      start.countDown();

      // While the two permit holders are held, every other caller is turned away: the first
      // CALLERS - LIMIT answers are all 503, after at most the configured 200 ms of waiting.
      List<HttpResponse<String>> answers = new ArrayList<>();
      for (int i = 0; i < CALLERS - LIMIT; i++) {
        answers.add(next(replies));
      }
      assertThat(answers).extracting(HttpResponse::statusCode).containsOnly(503);
      assertThat(Http.json(answers.get(0)).get("type").asText())
          .isEqualTo("tag:bulwark.dev,2025:problem:bulkhead-full");
      assertThat(Http.json(answers.get(0)).get("limit").asText()).isEqualTo("legacy-api");
      Http.awaitTrue(
          "the two permit holders are inside",
          () -> downstream.heldCalls(LegacyService.DOWNSTREAM) == LIMIT);
      assertThat(legacy.running()).isEqualTo(LIMIT);

      // Let the backend answer: exactly the two permit holders succeed.
      downstream.release(LegacyService.DOWNSTREAM);
      List<HttpResponse<String>> admitted = List.of(next(replies), next(replies));
      assertThat(admitted).extracting(HttpResponse::statusCode).containsOnly(200);
      assertThat(admitted)
          .extracting(r -> Http.json(r).get("concurrentCalls").asInt())
          .allMatch(n -> n >= 1 && n <= LIMIT);
    } finally {
      callers.shutdownNow();
    }

    assertThat(legacy.maxRunning()).isEqualTo(LIMIT);
    given()
        .get("/legacy/stats")
        .then()
        .statusCode(200)
        .body("running", is(0))
        .body("maxConcurrent", lessThanOrEqualTo(LIMIT));
  }

  @Test
  void aFreedPermitServesTheNextCaller() throws Exception {
    downstream.hold(LegacyService.DOWNSTREAM);
    try (Http http = new Http(root, LIMIT)) {
      List<Future<HttpResponse<String>>> holders = new ArrayList<>();
      for (int i = 0; i < LIMIT; i++) {
        holders.add(http.get("/legacy/report?customer=holder" + i));
      }
      Http.awaitTrue(
          "both permits are held", () -> downstream.heldCalls(LegacyService.DOWNSTREAM) == LIMIT);
      assertThat(legacy.maxRunning()).isLessThanOrEqualTo(LIMIT);
      given().get("/legacy/report?customer=late").then().statusCode(503);

      downstream.release(LegacyService.DOWNSTREAM);
      for (Future<HttpResponse<String>> holder : holders) {
        assertThat(holder.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
            .isEqualTo(200);
      }
    }
    // Without a hold a call takes the configured call duration and gets a permit again.
    given().get("/legacy/report?customer=again").then().statusCode(200);
    assertThat(legacy.maxRunning()).isLessThanOrEqualTo(LIMIT);
  }

  /**
   * The next answer, within {@link Http#PATIENCE}; fails at once if the bulkhead ever let more than
   * {@link #LIMIT} calls in.
   */
  private HttpResponse<String> next(CompletionService<HttpResponse<String>> replies)
      throws Exception {
    long deadline = System.nanoTime() + Http.PATIENCE.toNanos();
    while (System.nanoTime() < deadline) {
      assertThat(legacy.maxRunning())
          .as("calls inside the bulkhead at once")
          .isLessThanOrEqualTo(LIMIT);
      Future<HttpResponse<String>> reply = replies.poll(10, TimeUnit.MILLISECONDS);
      if (reply != null) {
        return reply.get();
      }
    }
    throw new AssertionError("No answer within " + Http.PATIENCE);
  }
}
