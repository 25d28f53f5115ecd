package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.StoreContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Asynchronous bulkhead calls made on a real Vert.x event loop, on the Redis store seen through a
 * wrapper that records on which threads it is called: no event-loop thread ever waits for Redis
 * (admission, release and hand-over run elsewhere, and the call's own code comes back to its loop),
 * and the asynchronous admissions of one bulkhead do not queue behind another's round trip.
 */
@ExtendWith(RedisExtension.class)
@Timeout(60)
class EventLoopOnRedisTest {

  private static final long WAIT_SECONDS = 20;

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void anEventLoopNeverWaitsForRedisAndItsCallsComeBackToIt(TestRedis test) throws Exception {
    Recorded recorded = new Recorded();
    try (BulwarkEngine engine = start(test, recorded)) {
      BulkheadHandle single = engine.programmatic().bulkhead("single");
      Context loop = vertx.getOrCreateContext();

      // the first call holds the permit until the loop itself completes its work's stage
      CompletableFuture<String> firstWork = new CompletableFuture<>();
      CompletableFuture<String> first = onLoop(loop, () -> single.callAsync(() -> firstWork));
      awaitHeld(single, 1);

      // the second call queues, made on the loop too
      CompletableFuture<String> secondRanOn = new CompletableFuture<>();
      CompletableFuture<String> second =
          onLoop(
              loop,
              () ->
                  single.callAsync(
                      () -> {
                        secondRanOn.complete(
                            Context.isOnEventLoopThread() ? "event loop" : "elsewhere");
                        return CompletableFuture.completedFuture("second");
                      }));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (engine.waiters().size() < 1) {
        assertThat(System.nanoTime() - deadline).as("the second call queues").isNegative();
        Thread.sleep(10);
      }

      CompletableFuture<String> firstSeenOn = new CompletableFuture<>();
      first.whenComplete(
          (value, failure) ->
              firstSeenOn.complete(
                  Context.isOnEventLoopThread()
                      ? "event loop"
                      : "elsewhere: " + Thread.currentThread().getName()));
      loop.runOnContext(ignored -> firstWork.complete("first")); // released from the loop

      // read first: a thread that waits on the caller's stage itself may run its dependents
      assertThat(firstSeenOn.get(WAIT_SECONDS, TimeUnit.SECONDS))
          .as("where the first caller sees its result")
          .isEqualTo("event loop");
      assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("first");
      assertThat(second.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("second");
      awaitHeld(single, 0);
      assertThat(recorded.calls).as("store calls recorded").isNotEmpty();
      assertThat(recorded.onEventLoop).as("store calls made on an event-loop thread").isEmpty();
      assertThat(secondRanOn.get(WAIT_SECONDS, TimeUnit.SECONDS))
          .as("where the waited call ran")
          .isEqualTo("event loop");
    }
  }

  @Test
  void asynchronousAdmissionsDoNotQueueBehindAnotherAdmissionsRoundTrip(TestRedis test)
      throws Exception {
    Recorded recorded = new Recorded();
    try (BulwarkEngine engine = start(test, recorded)) {
      BulkheadHandle wide = engine.programmatic().bulkhead("wide");
      CountDownLatch firstAsking = new CountDownLatch(1);
      CountDownLatch letFirstAnswer = new CountDownLatch(1);
      recorded.stallNextAcquire(firstAsking, letFirstAnswer);
      CompletableFuture<CompletionStage<String>> first =
          CompletableFuture.supplyAsync(
              () -> wide.callAsync(() -> CompletableFuture.completedFuture("first")));
      assertThat(firstAsking.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

      // the first admission's round trip is stalled; another admission must still reach Redis
      CompletableFuture<CompletionStage<String>> second =
          CompletableFuture.supplyAsync(
              () -> wide.callAsync(() -> CompletableFuture.completedFuture("second")));
      try {
        assertThat(second.get(WAIT_SECONDS, TimeUnit.SECONDS).toCompletableFuture().get())
            .as("the second call, admitted while the first one's round trip is under way")
            .isEqualTo("second");
      } finally {
        letFirstAnswer.countDown();
      }
      assertThat(
              first
                  .get(WAIT_SECONDS, TimeUnit.SECONDS)
                  .toCompletableFuture()
                  .get(WAIT_SECONDS, TimeUnit.SECONDS))
          .isEqualTo("first");
    }
  }

  private static <T> CompletableFuture<T> onLoop(Context loop, Callable<CompletionStage<T>> call)
      throws Exception {
    CompletableFuture<CompletableFuture<T>> made = new CompletableFuture<>();
    loop.runOnContext(
        ignored -> {
          try {
            made.complete(call.call().toCompletableFuture());
          } catch (Exception e) {
            made.completeExceptionally(e);
          }
        });
    return made.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  private static void awaitHeld(BulkheadHandle bulkhead, int held) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (bulkhead.inspect().holders().size() != held) {
      assertThat(System.nanoTime() - deadline).as("%d held in Redis", held).isNegative();
      Thread.sleep(10);
    }
  }

  private static BulwarkEngine start(TestRedis test, Recorded recorded) {
    return BulwarkEngine.start(
        ConfigLookup.of(
            Map.of(
                "bulwark.store", Recorded.ID,
                "bulwark.redis.url", test.url(),
                "bulwark.redis.key-prefix", test.prefix(),
                "bulwark.bulkhead.single.value", "1",
                "bulwark.bulkhead.single.waiting-time", "30s",
                "bulwark.bulkhead.wide.value", "5",
                "bulwark.bulkhead.wide.waiting-time", "30s")),
        List.of(recorded));
  }

  /**
   * The Redis store, as the engine opens it, behind a wrapper that records every bulkhead call made
   * on an event-loop thread, and can stall one acquire until the test lets it answer.
   */
  private static final class Recorded implements BulwarkStoreProvider {

    static final String ID = "redis-recorded";

    final Set<String> calls = ConcurrentHashMap.newKeySet();
    final Set<String> onEventLoop = ConcurrentHashMap.newKeySet();
    private volatile CountDownLatch stalledAsking;
    private volatile CountDownLatch stalledUntil;

    void stallNextAcquire(CountDownLatch asking, CountDownLatch until) {
      stalledUntil = until;
      stalledAsking = asking;
    }

    @Override
    public String id() {
      return ID;
    }

    @Override
    public BulwarkStore open(StoreContext context) {
      BulwarkStore redis = new RedisStoreProvider().open(context);
      PermitStore permits = redis.permits();
      PermitStore recording =
          new PermitStore() {
            @Override
            public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
              return record(
                  "acquire",
                  () -> {
                    CountDownLatch asking = stalledAsking;
                    if (asking != null) {
                      stalledAsking = null;
                      asking.countDown();
                      try {
                        stalledUntil.await(WAIT_SECONDS * 2, TimeUnit.SECONDS);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }
                    return permits.acquire(spec, requestId, mayQueue);
                  });
            }

            @Override
            public Grant poll(PermitSpec spec, long requestId) {
              return record("poll", () -> permits.poll(spec, requestId));
            }

            @Override
            public Grant cancel(PermitSpec spec, long requestId) {
              return record("cancel", () -> permits.cancel(spec, requestId));
            }

            @Override
            public Optional<String> define(PermitSpec spec) {
              return permits.define(spec);
            }

            @Override
            public boolean release(PermitSpec spec, long requestId) {
              return record("release", () -> permits.release(spec, requestId));
            }

            @Override
            public BulkheadSnapshot inspect(PermitSpec spec) {
              return permits.inspect(spec);
            }
          };
      return ForwardingStore.withPermits(redis, recording);
    }

    private <T> T record(String operation, Supplier<T> call) {
      String where = operation + " on " + Thread.currentThread().getName();
      calls.add(where);
      if (Context.isOnEventLoopThread()) {
        onEventLoop.add(where);
      }
      return call.get();
    }
  }
}
