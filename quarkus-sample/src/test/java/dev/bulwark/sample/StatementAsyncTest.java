package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Bulwark on Quarkus' event loops: a {@code Uni} method waits for its permit without blocking the
 * loop, and a synchronous method that would have to wait there is refused, saying why.
 */
@QuarkusTest
class StatementAsyncTest {

  private static final int LIMIT = 2;
  private static final int CALLERS = 12;

  @TestHTTPResource("/")
  URI root;

  @Inject StatementService statements;
  @Inject AsyncDownstream renderer;
  @Inject LegacyService legacy;
  @Inject SlowDownstream legacyBackend;
  @Inject Vertx vertx;

  @AfterEach
  void releaseHeldCalls() {
    renderer.release(StatementService.RENDERER);
    legacyBackend.release(LegacyService.DOWNSTREAM);
  }

  @Test
  void queuedUniCallsWaitWithoutBlockingTheEventLoopAndTwoRenderAtOnce() throws Exception {
    renderer.hold(StatementService.RENDERER);
    try (Http http = new Http(root, CALLERS)) {
      List<Future<HttpResponse<String>>> replies = new ArrayList<>();
      for (int i = 0; i < CALLERS; i++) {
        replies.add(http.get("/statements/acct-" + i));
      }
      Http.awaitTrue(
          "two renderings hold the permits",
          () -> renderer.heldCalls(StatementService.RENDERER) == LIMIT);

      // more callers wait than Quarkus has event loops: had they blocked them, this would hang
      given().get("/legacy/stats").then().statusCode(200);
      assertThat(replies).noneMatch(Future::isDone);

      renderer.release(StatementService.RENDERER);
      for (Future<HttpResponse<String>> reply : replies) {
        assertThat(reply.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
            .isEqualTo(200);
      }
    }
    assertThat(statements.maxRunning()).isEqualTo(LIMIT);
  }

  @Test
  void aSynchronousCallThatWouldWaitOnTheEventLoopIsRefusedSayingWhatToDo() throws Exception {
    legacyBackend.hold(LegacyService.DOWNSTREAM);
    try (Http http = new Http(root, LIMIT)) {
      List<Future<HttpResponse<String>>> holders = new ArrayList<>();
      for (int i = 0; i < LIMIT; i++) {
        holders.add(http.get("/legacy/report?customer=holder" + i));
      }
      Http.awaitTrue(
          "both legacy-api permits are held",
          () -> legacyBackend.heldCalls(LegacyService.DOWNSTREAM) == LIMIT);

      CompletableFuture<Object> onLoop = new CompletableFuture<>();
      vertx.runOnContext(
          ignored -> {
            try {
              assertThat(Context.isOnEventLoopThread()).isTrue();
              onLoop.complete(legacy.fetchReport("from-the-event-loop"));
            } catch (Throwable e) {
              onLoop.completeExceptionally(e);
            }
          });
      try {
        onLoop.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        throw new AssertionError("a full bulkhead admitted a call on the event loop");
      } catch (ExecutionException e) {
        assertThat(e.getCause())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("bulkhead 'legacy-api' would have to wait (up to 200 ms)")
            .hasMessageContaining("event-loop thread")
            .hasMessageContaining("@Blocking");
      }

      legacyBackend.release(LegacyService.DOWNSTREAM);
      for (Future<HttpResponse<String>> holder : holders) {
        assertThat(holder.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
            .isEqualTo(200);
      }
    }
  }
}
