package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The engine on the Redis store: what only the two together do. */
@ExtendWith(RedisExtension.class)
class EngineOnRedisTest {

  @Test
  @Timeout(20)
  void aWaiterQueuedLongerThanItsLeaseKeepsItsPlaceAndGetsThePermit(TestRedis test)
      throws Exception {
    // lease 600 ms, the holder runs 2 s: without renewal of the queued request, its entry would
    // expire at 600 ms, the hand-over would skip it and the waiter would be rejected
    try (BulwarkEngine engine =
        start(
            test,
            Map.of(
                "bulwark.bulkhead.slow.value", "1",
                "bulwark.bulkhead.slow.lease", "600ms",
                "bulwark.bulkhead.slow.waiting-time", "5s"))) {
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("slow");
      Permit held = bulkhead.acquire();
      CountDownLatch asking = new CountDownLatch(1);
      CompletableFuture<Long> waiter =
          CompletableFuture.supplyAsync(
              () -> {
                asking.countDown();
                try (Permit permit = bulkhead.acquire()) {
                  return System.nanoTime();
                }
              });
      assertThat(asking.await(5, TimeUnit.SECONDS)).isTrue();
      String waiters = test.keys().bulkhead("slow").waiters();
      long queuedSince = System.nanoTime();
      while (test.redis().zcard(waiters) == 0) {
        assertThat(System.nanoTime() - queuedSince).isLessThan(TimeUnit.SECONDS.toNanos(5));
        Thread.onSpinWait();
      }
      Thread.sleep(2_000); // more than three leases: only renewals keep both in Redis

      assertThat(test.redis().zcard(waiters)).as("the waiter is still queued").isEqualTo(1);
      long released = System.nanoTime();
      held.close();
      long entered = waiter.get(5, TimeUnit.SECONDS);
      assertThat(entered).isGreaterThanOrEqualTo(released);
    }
  }

  @Test
  @Timeout(20)
  void aJvmThatDefinesALimitDifferentlyIsReportedNamingBothDefinitions(TestRedis test) {
    List<LogRecord> warnings = new ArrayList<>();
    Logger logger = Logger.getLogger("dev.bulwark.core.engine.DefinitionRecorder");
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
              warnings.add(record);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(capture);
    try (BulwarkEngine first = start(test, Map.of("bulwark.bulkhead.shared.value", "5"));
        BulwarkEngine second = start(test, Map.of("bulwark.bulkhead.shared.value", "10"))) {
      first.programmatic().bulkhead("shared").tryAcquire().ifPresent(Permit::close);
      assertThat(warnings).isEmpty();

      second.programmatic().bulkhead("shared").tryAcquire().ifPresent(Permit::close);

      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0).getMessage())
          .contains("bulkhead 'shared'", "here value=10", "value=5 (instance ");
    } finally {
      logger.removeHandler(capture);
    }
  }

  private static BulwarkEngine start(TestRedis test, Map<String, String> limits) {
    Map<String, String> config = new HashMap<>(limits);
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", test.url());
    config.put("bulwark.redis.key-prefix", test.prefix());
    return BulwarkEngine.start(ConfigLookup.of(config));
  }
}
