package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * While the wake-up subscription stands, a JVM's waiters on one limit share one check per interval
 * instead of polling each: 40 callers queued behind a held permit (threads and asynchronous stages)
 * send about 20 polls in a second of 50 ms intervals, at most two each (MONITOR counts the polls
 * inside the batch scripts), where a poll per waiter and interval is 800; the release then hands
 * the permit down the queue by wake-ups. And the shared checks still find room that appears without
 * a hand-over: a holder that died is reclaimed after its lease and its permit reaches the waiters.
 */
@ExtendWith(RedisExtension.class)
@Timeout(60)
class SharedChecksTest {

  private static final int WAITERS = 40;
  private static final Pattern POLL = Pattern.compile("\"P\" \"\\d+\"");

  @Test
  void queuedCallersShareOnePollPerIntervalAndAreServedByWakeUps(TestRedis test) throws Exception {
    try (BulwarkEngine engine = start(test, "60s")) {
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("one");
      Permit held = bulkhead.acquire();
      List<CompletableFuture<Void>> waiters = queue(bulkhead);
      // the first waiters chose their first check before the others queued: let those pass
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));

      try (RedisMonitor monitor = RedisMonitor.start(test)) {
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // twenty check intervals
        int polls = 0;
        for (String command : monitor.commandsSent()) {
          Matcher matcher = POLL.matcher(command);
          while (matcher.find()) {
            polls++;
          }
        }
        // about 20; each waits at least half the interval times 40 (1 s) between its checks, and
        // one that chose its first check while fewer had queued may add one more
        assertThat(polls).as("polls in one second").isLessThanOrEqualTo(2 * WAITERS);
      }

      held.close();
      CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
      assertThat(bulkhead.inspect().queued()).isZero();
    }
  }

  @Test
  void aPermitWhoseHolderDiedReachesTheWaitersAfterItsLease(TestRedis test) throws Exception {
    try (RecordingStore deadJvm = test.open();
        BulwarkEngine engine = start(test, "600ms")) {
      // taken and never renewed nor released, as by a JVM that died
      assertThat(deadJvm.store().permits().acquire(new PermitSpec("one", 1, 600), 1, true))
          .isEqualTo(Grant.GRANTED);
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("one");
      List<CompletableFuture<Void>> waiters = queue(bulkhead);
      // no release will come: only a check reclaims the permit; then hand-overs pass it on
      CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }
  }

  private static List<CompletableFuture<Void>> queue(BulkheadHandle bulkhead) {
    List<CompletableFuture<Void>> waiters = new ArrayList<>();
    for (int i = 0; i < WAITERS; i++) {
      waiters.add(
          i % 2 == 0
              ? CompletableFuture.runAsync(() -> bulkhead.acquire().close())
              : bulkhead.acquireAsync().toCompletableFuture().thenAccept(Permit::close));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (bulkhead.inspect().queued() < WAITERS) {
      assertThat(System.nanoTime()).as("every caller queued").isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    return waiters;
  }

  private static BulwarkEngine start(TestRedis test, String lease) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", test.url());
    config.put("bulwark.redis.key-prefix", test.prefix());
    config.put("bulwark.redis.wake-up-check-interval", "50ms");
    config.put("bulwark.bulkhead.one.value", "1");
    config.put("bulwark.bulkhead.one.lease", lease);
    config.put("bulwark.bulkhead.one.waiting-time", "50s");
    return BulwarkEngine.start(ConfigLookup.of(config));
  }
}
