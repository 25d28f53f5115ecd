package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Bulwark;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitExceededException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * On a real Vert.x event loop: a synchronous call that would have to wait is refused with a message
 * that says so and what to do, a call that need not wait runs, and an asynchronous call waits
 * without blocking the loop.
 */
@Timeout(30)
class EventLoopTest {

  private final BulwarkEngine engine =
      Engines.local(
          Map.of(
              "bulwark.bulkhead.single.value", "1",
              "bulwark.bulkhead.single.waiting-time", "10s",
              "bulwark.lock.accounts.waiting-time", "10s",
              "bulwark.rate-limit.strict.value", "1",
              "bulwark.rate-limit.strict.window", "1h",
              "bulwark.rate-limit.strict.waiting-time", "2h"));
  private final Bulwark bulwark = engine.programmatic();
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    engine.close();
  }

  @Test
  void aSynchronousCallThatWouldWaitOnTheEventLoopIsRefusedSayingWhatToDo() throws Exception {
    BulkheadHandle single = bulwark.bulkhead("single");
    try (Permit held = single.acquire()) {
      assertThatThrownBy(() -> onEventLoop(single::acquire))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("bulkhead 'single' would have to wait (up to 10000 ms)")
          .hasMessageContaining("event-loop thread")
          .hasMessageContaining("Return CompletionStage")
          .hasMessageContaining("@Blocking")
          .hasCauseInstanceOf(BulkheadFullException.class);
    }
    assertThat(engine.waiters().size()).as("never queued").isZero();
  }

  @Test
  void aSynchronousCallThatNeedNotWaitRunsOnTheEventLoop() throws Exception {
    BulkheadHandle single = bulwark.bulkhead("single");
    assertThat(onEventLoop(() -> single.call(() -> Context.isOnEventLoopThread()))).isTrue();
  }

  @Test
  void aLockAndARateLimitThatWouldWaitAreRefusedToo() throws Exception {
    try (LockPermit held =
        bulwark.lock("accounts").lockAsync("alice", LockMode.WRITE).toCompletableFuture().join()) {
      assertThatThrownBy(
              () -> onEventLoop(() -> bulwark.lock("accounts").lock("alice", LockMode.READ)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("lock 'accounts' key 'alice' would have to wait")
          .hasCauseInstanceOf(LockTimeoutException.class);
    }
    bulwark.rateLimiter("strict").acquire();
    assertThatThrownBy(
            () ->
                onEventLoop(
                    () -> {
                      bulwark.rateLimiter("strict").acquire();
                      return null;
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("rate limit 'strict' would have to wait")
        .hasCauseInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void anAsynchronousCallWaitsWithoutBlockingTheEventLoop() throws Exception {
    BulkheadHandle single = bulwark.bulkhead("single");
    Permit held = single.acquire();
    CompletionStage<Boolean> call =
        onEventLoop(() -> single.callAsync(() -> CompletableFuture.completedFuture(Boolean.TRUE)));
    assertThat(onEventLoop(() -> "the loop still runs")).isEqualTo("the loop still runs");
    held.close();
    assertThat(call.toCompletableFuture().get(5, TimeUnit.SECONDS)).isTrue();
  }

  private <T> T onEventLoop(Callable<T> call) throws Exception {
    CompletableFuture<T> result = new CompletableFuture<>();
    vertx.runOnContext(
        ignored -> {
          try {
            assertThat(Context.isOnEventLoopThread()).isTrue();
            result.complete(call.call());
          } catch (Throwable e) {
            result.completeExceptionally(e);
          }
        });
    try {
      return result.get(5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }
}
