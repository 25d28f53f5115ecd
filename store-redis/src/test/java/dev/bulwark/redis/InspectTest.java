package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Holder;
import dev.bulwark.LockHandle;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.Permit;
import dev.bulwark.RateLimiterHandle;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's view on Redis: two engines (two JVMs as Redis sees them) share the limits, and
 * each sees every holder and waiter, with the JVM that holds it and its lease; reading changes
 * nothing in Redis.
 */
@ExtendWith(RedisExtension.class)
class InspectTest {

  private static final Map<String, String> LIMITS =
      Map.of(
          "bulwark.bulkhead.reports.value", "2",
          "bulwark.bulkhead.reports.lease", "30s",
          "bulwark.bulkhead.reports.waiting-time", "20s",
          "bulwark.lock.ledger.waiting-time", "20s",
          "bulwark.rate-limit.quotes", "3/1m");

  @Test
  @Timeout(30)
  void aBulkheadShowsTheHoldersOfEveryJvmTheQueueAndTheLeases(TestRedis test) throws Exception {
    try (BulwarkEngine a = start(test);
        BulwarkEngine b = start(test)) {
      BulkheadHandle onA = a.programmatic().bulkhead("reports");
      BulkheadHandle onB = b.programmatic().bulkhead("reports");
      assertThat(onB.inspect()).isEqualTo(new BulkheadSnapshot("reports", 2, List.of(), 0));

      long before = test.serverMillis();
      Permit first = onA.acquire();
      Permit second = onB.acquire();
      CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> onA.acquire().close());
      await(() -> onB.inspect().queued() == 1);
      Set<String> keysBefore = test.keyNames();

      BulkheadSnapshot full = onB.inspect();
      assertThat(full.available()).isZero();
      assertThat(full.holders())
          .extracting(Holder::instance)
          .containsExactlyInAnyOrder(instance(a), instance(b));
      assertThat(full.holders())
          .allSatisfy(
              h ->
                  assertThat(h.leaseExpiry().orElseThrow())
                      .isAfterOrEqualTo(Instant.ofEpochMilli(before + 30_000)));
      assertThat(test.keyNames()).as("reading changes no key").isEqualTo(keysBefore);

      first.close();
      waiter.get(20, TimeUnit.SECONDS);
      second.close();
      // releases are posted, not waited for by the call that ends: let them reach Redis
      assertThat(a.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(b.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(onA.inspect()).isEqualTo(new BulkheadSnapshot("reports", 2, List.of(), 0));
    }
  }

  @Test
  @Timeout(30)
  void aHolderWhoseLeaseRanOutIsNotShown(TestRedis test) {
    try (BulwarkEngine a = start(test)) {
      BulkheadHandle reports = a.programmatic().bulkhead("reports");
      String holders = test.keys().bulkhead("reports").holders();
      test.redis().zadd(holders, test.serverMillis() - 1, "gone:1");
      assertThat(reports.inspect().holders()).isEmpty();
      assertThat(test.redis().zcard(holders)).as("left for the next decision").isEqualTo(1);
    }
  }

  @Test
  @Timeout(30)
  void aLockKeyShowsItsWriterReadersAndQueueAcrossJvms(TestRedis test) throws Exception {
    try (BulwarkEngine a = start(test);
        BulwarkEngine b = start(test)) {
      LockHandle onA = a.programmatic().lock("ledger");
      LockHandle onB = b.programmatic().lock("ledger");
      LockPermit writer = onA.lock("acct-1", LockMode.WRITE);
      CompletableFuture<Void> reader =
          CompletableFuture.runAsync(() -> onB.lock("acct-1", LockMode.READ).close());
      await(() -> onB.inspect("acct-1").queued() == 1);

      LockKeySnapshot written = onB.inspect("acct-1");
      assertThat(written.writer()).get().extracting(Holder::instance).isEqualTo(instance(a));
      assertThat(written.readers()).isEmpty();

      writer.close();
      reader.get(20, TimeUnit.SECONDS);
      // another thread: on one thread the second read would re-enter the first
      LockPermit r2 =
          CompletableFuture.supplyAsync(() -> onB.lock("acct-1", LockMode.READ))
              .get(20, TimeUnit.SECONDS);
      try (LockPermit r1 = onA.lock("acct-1", LockMode.READ)) {
        LockKeySnapshot read = onA.inspect("acct-1");
        assertThat(read.writer()).isEmpty();
        assertThat(read.readers())
            .extracting(Holder::instance)
            .containsExactlyInAnyOrder(instance(a), instance(b));
        assertThat(read.queued()).isZero();
      } finally {
        r2.close();
      }
      assertThat(onA.inspect("acct-2").writer()).isEmpty();
    }
  }

  @Test
  @Timeout(30)
  void aRateLimitShowsThePermitsLeftOfEveryTypeWithoutTakingAny(TestRedis test) {
    for (String type : List.of("smooth", "fixed", "rolling")) {
      Map<String, String> config = new HashMap<>(LIMITS);
      config.put("bulwark.rate-limit.quotes-" + type, "3/1m");
      config.put("bulwark.rate-limit.quotes-" + type + ".type", type);
      try (BulwarkEngine a = start(test, config);
          BulwarkEngine b = start(test, config)) {
        RateLimiterHandle onA = a.programmatic().rateLimiter("quotes-" + type);
        RateLimiterHandle onB = b.programmatic().rateLimiter("quotes-" + type);
        assertThat(onB.inspect().available()).as(type).isEqualTo(3);
        assertThat(onA.tryAcquire()).isTrue();
        assertThat(onB.tryAcquire()).isTrue();
        assertThat(onA.inspect().available()).as(type).isEqualTo(1);
        assertThat(onB.inspect().available()).as(type + ": reading takes nothing").isEqualTo(1);
        assertThat(onB.tryAcquire()).isTrue();
        assertThat(onA.inspect().available()).as(type).isZero();
        assertThat(onA.tryAcquire()).isFalse();
      }
    }
  }

  private static String instance(BulwarkEngine engine) {
    return ((RedisStore) engine.store()).instance();
  }

  private static BulwarkEngine start(TestRedis test) {
    return start(test, LIMITS);
  }

  private static BulwarkEngine start(TestRedis test, Map<String, String> limits) {
    Map<String, String> config = new HashMap<>(limits);
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", test.url());
    config.put("bulwark.redis.key-prefix", test.prefix());
    return BulwarkEngine.start(ConfigLookup.of(config));
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 20 s").isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
