package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.LockHandle;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimiterHandle;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many limits at once on the real Redis, under every kind of caller: synchronous threads (some of
 * them interrupted while they wait), and asynchronous calls fired from Vert.x event loops at a
 * thousand a second, all with waiting times. Every call is recorded, and judged: each ended within
 * its waiting time plus {@link #BOUND} (none hangs, whatever else the limit's lane is doing), every
 * asynchronous stage completed, the engine's flush returns and its close returns promptly. Run with
 * releases awaited (the default) and posted, where a posted release on an idle lane once left every
 * later call of its limit waiting for good.
 */
@ExtendWith(RedisExtension.class)
@Timeout(180)
class LivenessOnRedisTest {

  /**
   * What a call may take beyond its waiting time: its own round trips, its release, and a busy
   * machine's pauses. A stalled lane is stalled for good, far beyond it.
   */
  private static final Duration BOUND = Duration.ofSeconds(5);

  private static final Duration RUN = Duration.ofSeconds(8);

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  /** One call as it happened. */
  private record Call(
      String limit, long waitNanos, long startNanos, long endNanos, String outcome) {
    long overNanos() {
      return endNanos - startNanos - waitNanos;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"awaited", "posted"})
  void everyCallEndsInTimeFlushAndCloseReturnUnderEveryKindOfCaller(String release, TestRedis test)
      throws Exception {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", test.url());
    config.put("bulwark.redis.key-prefix", test.prefix());
    config.put("bulwark.release", release);
    for (int i = 0; i < 4; i++) {
      config.put("bulwark.bulkhead.narrow-" + i + ".value", "2");
      config.put("bulwark.bulkhead.narrow-" + i + ".waiting-time", "300ms");
    }
    config.put("bulwark.bulkhead.wide.value", "10000");
    config.put("bulwark.bulkhead.wide.waiting-time", "5s");
    config.put("bulwark.lock.accounts.waiting-time", "300ms");
    config.put("bulwark.rate-limit.smooth.value", "200");
    config.put("bulwark.rate-limit.smooth.window", "1s");
    config.put("bulwark.rate-limit.smooth.waiting-time", "100ms");
    config.put("bulwark.rate-limit.fixed.value", "50");
    config.put("bulwark.rate-limit.fixed.window", "1s");
    config.put("bulwark.rate-limit.fixed.type", "FIXED");

    ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
    List<CompletableFuture<?>> asyncCalls = new ArrayList<>();
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger asyncIssued = new AtomicInteger();
    BulwarkEngine engine = BulwarkEngine.start(ConfigLookup.of(config));
    try {
      List<Thread> callers = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        Random random = new Random(t);
        Thread caller =
            new Thread(() -> callSynchronously(engine, random, running, calls), "sync-" + t);
        callers.add(caller);
        caller.start();
      }
      Thread interrupter =
          new Thread(
              () -> {
                Random random = new Random(99);
                while (running.get()) {
                  callers.get(random.nextInt(callers.size())).interrupt();
                  sleepQuietly(50);
                }
              },
              "interrupter");
      interrupter.start();

      BulkheadHandle wide = engine.programmatic().bulkhead("wide");
      BulkheadHandle narrow = engine.programmatic().bulkhead("narrow-0");
      long[] timers = new long[2];
      for (int loop = 0; loop < 2; loop++) {
        BulkheadHandle target = loop == 0 ? wide : narrow;
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(loop == 0 ? 5000 : 300);
        timers[loop] =
            vertx.setPeriodic(
                1,
                id -> {
                  if (!running.get()) {
                    return;
                  }
                  asyncIssued.incrementAndGet();
                  long start = System.nanoTime();
                  CompletableFuture<String> call =
                      target
                          .callAsync(() -> CompletableFuture.completedFuture("done"))
                          .toCompletableFuture()
                          .handle(
                              (value, failure) -> {
                                calls.add(
                                    new Call(
                                        target.name(),
                                        waitNanos,
                                        start,
                                        System.nanoTime(),
                                        failure == null
                                            ? "granted"
                                            : failure.getClass().getName()));
                                return value;
                              });
                  synchronized (asyncCalls) {
                    asyncCalls.add(call);
                  }
                });
      }

      Thread.sleep(RUN.toMillis());
      running.set(false);
      vertx.cancelTimer(timers[0]);
      vertx.cancelTimer(timers[1]);
      interrupter.join(10_000);
      for (Thread caller : callers) {
        caller.join(TimeUnit.SECONDS.toMillis(5000 / 1000 + BOUND.toSeconds() + 5));
        assertThat(caller.isAlive()).as("%s ended", caller.getName()).isFalse();
      }
      List<CompletableFuture<?>> issued;
      synchronized (asyncCalls) {
        issued = new ArrayList<>(asyncCalls);
      }
      CompletableFuture.allOf(issued.toArray(CompletableFuture[]::new))
          .handle((v, f) -> null)
          .get(5 + BOUND.toSeconds(), TimeUnit.SECONDS);

      long flushStart = System.nanoTime();
      assertThat(engine.flush(Duration.ofSeconds(10))).as("flush returns").isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - flushStart)).isLessThan(BOUND);
    } finally {
      running.set(false);
      long closeStart = System.nanoTime();
      engine.close();
      assertThat(Duration.ofNanos(System.nanoTime() - closeStart))
          .as("close returns promptly")
          .isLessThan(BOUND);
    }

    List<Call> recorded = new ArrayList<>(calls);
    assertThat(asyncIssued.get()).as("asynchronous calls issued").isGreaterThan(1000);
    assertThat(recorded.stream().filter(c -> c.limit().equals("wide")).count())
        .as("asynchronous calls on the wide bulkhead that ended")
        .isGreaterThan(1000);
    assertThat(recorded.stream().filter(c -> c.outcome().equals("granted")).count())
        .as("calls granted")
        .isGreaterThan(1000);
    assertThat(recorded)
        .as("calls that ended later than their waiting time plus %s", BOUND)
        .filteredOn(call -> call.overNanos() > BOUND.toNanos())
        .isEmpty();
  }

  private static void callSynchronously(
      BulwarkEngine engine,
      Random random,
      AtomicBoolean running,
      ConcurrentLinkedQueue<Call> calls) {
    LockHandle accounts = engine.programmatic().lock("accounts");
    RateLimiterHandle smooth = engine.programmatic().rateLimiter("smooth");
    RateLimiterHandle fixed = engine.programmatic().rateLimiter("fixed");
    while (running.get()) {
      int pick = random.nextInt(4);
      String limit;
      long waitNanos;
      long start = System.nanoTime();
      String outcome;
      try {
        switch (pick) {
          case 0 -> {
            limit = "narrow-" + random.nextInt(4);
            waitNanos = TimeUnit.MILLISECONDS.toNanos(300);
            engine.programmatic().bulkhead(limit).call(() -> work(random));
          }
          case 1 -> {
            limit = "accounts";
            waitNanos = TimeUnit.MILLISECONDS.toNanos(300);
            LockMode mode = random.nextInt(4) == 0 ? LockMode.WRITE : LockMode.READ;
            accounts.call("k" + random.nextInt(8), mode, () -> work(random));
          }
          case 2 -> {
            limit = "smooth";
            waitNanos = TimeUnit.MILLISECONDS.toNanos(100);
            smooth.call(() -> work(random));
          }
          default -> {
            limit = "fixed";
            waitNanos = 0;
            fixed.call(() -> work(random));
          }
        }
        outcome = "granted";
      } catch (Exception e) {
        limit = "any";
        waitNanos = TimeUnit.MILLISECONDS.toNanos(300);
        outcome = e.getClass().getName();
      }
      Thread.interrupted(); // an interrupt meant for the wait is not carried into the next call
      calls.add(new Call(limit, waitNanos, start, System.nanoTime(), outcome));
    }
  }

  private static String work(Random random) {
    if (random.nextInt(10) == 0) {
      sleepQuietly(2);
    }
    return "done";
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
