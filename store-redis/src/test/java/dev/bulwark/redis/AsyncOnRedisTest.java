package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.LockHandle;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.tck.AsyncCrowd;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Asynchronous calls on the Redis store: queued in Redis, woken by its hand-over notices, their
 * permits and locks held in Redis until their stages complete.
 */
@ExtendWith(RedisExtension.class)
@Timeout(60)
class AsyncOnRedisTest {

  @Test
  void aThousandCallersOnABulkheadOfFiveWaitWithoutThreadsAndStartInOrder(TestRedis test)
      throws Exception {
    // no polling: a poll that finds a grant before its notice arrived could start that call
    // before an older one whose notice is still on its way; the grants stay in order either way,
    // but this test checks the order in which the calls start
    try (BulwarkEngine engine =
        start(
            test,
            Map.of(
                "bulwark.bulkhead.crowd.value", "5",
                "bulwark.bulkhead.crowd.waiting-time", "60s",
                "bulwark.redis.wake-up-check-interval", "60s"))) {
      AsyncCrowd.check(
          engine.programmatic().bulkhead("crowd"), 5, 1_000, 4, Duration.ofSeconds(45));
      String holders = test.keys().bulkhead("crowd").holders();
      awaitNone(() -> test.redis().zcard(holders), "every permit released in Redis");
    }
  }

  @Test
  void aPermitIsHeldInRedisUntilTheStageCompletesAndATimedOutWaiterLeavesTheQueue(TestRedis test)
      throws Exception {
    try (BulwarkEngine engine =
        start(
            test,
            Map.of(
                "bulwark.bulkhead.single.value", "1",
                "bulwark.bulkhead.single.waiting-time", "300ms"))) {
      BulkheadHandle single = engine.programmatic().bulkhead("single");
      CompletableFuture<String> work = new CompletableFuture<>();
      CompletableFuture<String> call = single.callAsync(() -> work).toCompletableFuture();
      String holders = test.keys().bulkhead("single").holders();
      assertThat(test.redis().zcard(holders)).isEqualTo(1);

      AtomicBoolean started = new AtomicBoolean();
      CompletableFuture<String> waiter =
          single
              .callAsync(
                  () -> {
                    started.set(true);
                    return CompletableFuture.completedFuture("ran");
                  })
              .toCompletableFuture();
      assertThatThrownBy(() -> waiter.get(5, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(BulkheadFullException.class)
          .hasMessageContaining("no permit within 300 ms");
      assertThat(started).isFalse();
      assertThat(test.redis().zcard(test.keys().bulkhead("single").queue()))
          .as("withdrawn from the queue")
          .isZero();

      work.completeExceptionally(new IllegalStateException("downstream broke"));
      assertThatThrownBy(call::join).hasRootCauseMessage("downstream broke");
      awaitNone(() -> test.redis().zcard(holders), "released in Redis");
      try (Permit next = single.tryAcquire().orElseThrow()) {
        assertThat(next).isNotNull();
      }
    }
  }

  @Test
  void aLockIsHeldInRedisUntilTheStageCompletes(TestRedis test) throws Exception {
    try (BulwarkEngine engine =
        start(test, Map.of("bulwark.lock.accounts.waiting-time", "200ms"))) {
      LockHandle accounts = engine.programmatic().lock("accounts");
      CompletableFuture<String> work = new CompletableFuture<>();
      CompletableFuture<String> write =
          accounts.callAsync("alice", LockMode.WRITE, () -> work).toCompletableFuture();

      assertThatThrownBy(
              () -> accounts.lockAsync("alice", LockMode.READ).toCompletableFuture().join())
          .hasCauseInstanceOf(LockTimeoutException.class);
      work.complete("written");

      assertThat(write.get(5, TimeUnit.SECONDS)).isEqualTo("written");
      try (LockPermit read =
          accounts
              .lockAsync("alice", LockMode.READ)
              .toCompletableFuture()
              .get(5, TimeUnit.SECONDS)) {
        assertThat(read.fencingToken()).isPositive();
      }
    }
  }

  /**
   * Waits until {@code count} reads 0: a call's release is posted to the store (it no longer waits
   * on the caller's path), so Redis learns of it a moment after the call completed.
   */
  private static void awaitNone(Supplier<Long> count, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long left = count.get();
    while (left != 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
      left = count.get();
    }
    assertThat(left).as(what).isZero();
  }

  private static BulwarkEngine start(TestRedis test, Map<String, String> limits) {
    Map<String, String> config = new HashMap<>(limits);
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", test.url());
    config.put("bulwark.redis.key-prefix", test.prefix());
    return BulwarkEngine.start(ConfigLookup.of(config));
  }
}
