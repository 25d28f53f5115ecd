package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PermitSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
      try (RedisMonitor monitor = RedisMonitor.start(test)) {
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // twenty check intervals
        int polls = 0;
        for (String command : monitor.commandsSent()) {
          Matcher matcher = POLL.matcher(command);
          while (matcher.find()) {
            polls++;
          }
        }
        // about 20: one per interval for the limit, whoever sends it
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

  /**
   * 400 callers queue behind a holder of another JVM that renews its lease while they queue and 3 s
   * more, then dies: the first of them is granted within a few check intervals of the lease's end,
   * the limit's one check per interval reclaiming the permit however many wait.
   */
  @Test
  void aHolderThatDiesAfterManyQueuedIsReclaimedWithinChecksOfItsLease(TestRedis test)
      throws Exception {
    int many = 400;
    // a lease of 2 s renewed every 200 ms: a loaded machine may stall the renewals a while
    PermitSpec spec = new PermitSpec("one", 1, 2_000);
    Lease held = new Lease(Lease.Kind.PERMIT, "one", "", 1, 2_000);
    try (RecordingStore deadJvm = test.open();
        BulwarkEngine engine = start(test, "600ms")) {
      assertThat(deadJvm.store().permits().acquire(spec, 1, true)).isEqualTo(Grant.GRANTED);
      // the holder renews its lease as an engine does while the callers queue, and 3 s more
      AtomicBoolean dead = new AtomicBoolean();
      AtomicLong lastRenewal = new AtomicLong(System.nanoTime());
      ExecutorService renewer = Executors.newSingleThreadExecutor();
      CompletableFuture<Void> holder =
          CompletableFuture.runAsync(
              () -> {
                while (!dead.get()) {
                  LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                  long renewing = System.nanoTime();
                  assertThat(deadJvm.store().renew(List.of(held))).as("renewed").isEmpty();
                  lastRenewal.set(renewing);
                }
              },
              renewer);
      renewer.shutdown(); // its thread ends with the holder
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("one");
      AtomicLong firstGrant = new AtomicLong();
      List<CompletableFuture<Void>> waiters = queue(bulkhead, many, firstGrant);
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
      dead.set(true);
      holder.get(10, TimeUnit.SECONDS); // its renewals all succeeded
      assertThat(firstGrant).as("nobody granted while the holder lived").hasValue(0);

      CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(50, TimeUnit.SECONDS);
      long leaseEnd = lastRenewal.get() + TimeUnit.MILLISECONDS.toNanos(2_000);
      // one check per 50 ms interval: a few intervals past the lease, with room for a slow machine
      assertThat(TimeUnit.NANOSECONDS.toMillis(firstGrant.get() - leaseEnd))
          .as("ms from the end of the dead holder's lease to the first grant")
          .isLessThan(2_000);
    }
  }

  private static List<CompletableFuture<Void>> queue(BulkheadHandle bulkhead) {
    return queue(bulkhead, WAITERS, new AtomicLong());
  }

  /**
   * Queues {@code count} callers, half threads, half asynchronous; notes the first grant's time.
   */
  private static List<CompletableFuture<Void>> queue(
      BulkheadHandle bulkhead, int count, AtomicLong firstGrant) {
    List<CompletableFuture<Void>> waiters = new ArrayList<>();
    Runnable granted = () -> firstGrant.compareAndSet(0, System.nanoTime());
    ExecutorService threads = Executors.newFixedThreadPool(count / 2 + 1);
    for (int i = 0; i < count; i++) {
      waiters.add(
          i % 2 == 0
              ? CompletableFuture.runAsync(
                  () -> {
                    Permit permit = bulkhead.acquire();
                    granted.run();
                    permit.close();
                  },
                  threads)
              : bulkhead
                  .acquireAsync()
                  .toCompletableFuture()
                  .thenAccept(
                      permit -> {
                        granted.run();
                        permit.close();
                      }));
    }
    threads.shutdown(); // its threads end with their calls
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (bulkhead.inspect().queued() < count) {
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
