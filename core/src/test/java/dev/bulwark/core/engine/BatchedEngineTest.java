package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.Permit;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.Origin;
import dev.bulwark.spi.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine in front of a store that batches: each limit's operations go through one batch queue,
 * a release leaves the caller's path, and nothing of a limit's guarantees changes.
 */
@Timeout(60)
class BatchedEngineTest {

  private final BatchingStore[] opened = new BatchingStore[1];
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private BulwarkEngine engine;

  private BulwarkEngine start(Map<String, String> config) {
    engine =
        BulwarkEngine.start(
            ConfigLookup.of(
                new java.util.HashMap<>(Map.of("bulwark.store", BatchingStore.ID)) {
                  {
                    putAll(config);
                  }
                }),
            List.of(BatchingStore.provider(opened, Duration.ofMillis(1))));
    return engine;
  }

  @AfterEach
  void stop() {
    pool.shutdownNow();
    if (engine != null) {
      engine.close();
    }
  }

  private BulkheadLimiter bulkhead(String name, int value) {
    return engine.bulkhead(
        new BulkheadDefinition(
            name,
            Origin.programmatic(),
            true,
            value,
            Duration.ofSeconds(20),
            Duration.ofSeconds(30),
            Map.of()));
  }

  @Test
  void aBulkheadNeverAdmitsMoreThanItsValueWhileItsOperationsGoInBatches() throws Exception {
    start(Map.of());
    BulkheadLimiter limiter = bulkhead("batched", 3);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    int threads = 16;
    int callsEach = 40;
    List<Future<Integer>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < callsEach; i++) {
                  try (Permit permit = limiter.acquire()) {
                    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                    Thread.onSpinWait();
                    running.decrementAndGet();
                  }
                }
                return callsEach;
              }));
    }
    int calls = 0;
    for (Future<Integer> each : done) {
      calls += each.get(50, TimeUnit.SECONDS);
    }
    assertThat(calls).isEqualTo(threads * callsEach);
    assertThat(mostAtOnce.get()).isBetween(1, 3);
    engine.close(); // sends the releases still posted
    assertThat(opened[0].local.bulkheadHolders("batched")).isZero();
    List<List<Operation>> batches = new ArrayList<>(opened[0].batches);
    long operations = batches.stream().mapToLong(List::size).sum();
    // every acquire and every release reached the store exactly once (nobody waited past 20 s)
    long releases =
        batches.stream()
            .flatMap(List::stream)
            .filter(op -> op.kind() == Operation.Kind.RELEASE)
            .count();
    assertThat(releases).isEqualTo(calls);
    assertThat(batches)
        .as("16 callers behind a 1 ms round trip share store calls")
        .hasSizeLessThan((int) operations)
        .allSatisfy(batch -> assertThat(batch).hasSizeBetween(1, 64));
  }

  @Test
  void aPostedReleaseReturnsBeforeItReachesTheStoreWhichCountsThePermitHeldUntilThen()
      throws Exception {
    start(Map.of("bulwark.release", "posted"));
    BulkheadLimiter limiter = bulkhead("one", 1);
    Permit permit = limiter.acquire();
    opened[0].releases.drainPermits(); // the store takes no release until the test says so
    permit.close(); // returns: the release is posted, not waited for
    assertThat(opened[0].local.bulkheadHolders("one"))
        .as("the store still counts the permit held")
        .isEqualTo(1);
    opened[0].releases.release(Integer.MAX_VALUE);
    Permit next = limiter.acquire(TimeUnit.SECONDS.toNanos(10));
    assertThat(next).isNotNull();
    next.close();
  }

  @Test
  void byDefaultACallReturnsOnlyOnceItsReleaseReachedTheStore() throws Exception {
    start(Map.of());
    BulkheadLimiter limiter = bulkhead("awaited", 1);
    Permit permit = limiter.acquire();
    opened[0].releases.drainPermits(); // the store takes no release until the test says so
    CountDownLatch returned = new CountDownLatch(1);
    pool.submit(
        () -> {
          permit.close();
          returned.countDown();
        });
    assertThat(returned.await(200, TimeUnit.MILLISECONDS))
        .as("the close waits for the store to take the release")
        .isFalse();
    opened[0].releases.release(Integer.MAX_VALUE);
    assertThat(returned.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(opened[0].local.bulkheadHolders("awaited"))
        .as("the permit is free in the store when the call returns")
        .isZero();
  }

  @Test
  void anInterruptedWaiterWhoseWithdrawalFailsIsRejectedAndKeepsItsInterruptUnderFailOpen()
      throws Exception {
    start(Map.of("bulwark.failure-policy", "fail-open"));
    BulkheadLimiter limiter = bulkhead("interrupted", 1);
    Permit held = limiter.acquire();
    opened[0].cancelsFail = true;
    AtomicReference<String> outcome = new AtomicReference<>();
    Thread waiter =
        new Thread(
            () -> {
              try (Permit admitted = limiter.acquire(TimeUnit.SECONDS.toNanos(20))) {
                outcome.set("admitted");
              } catch (RuntimeException e) {
                outcome.set(
                    e.getClass().getSimpleName()
                        + ", interrupted: "
                        + Thread.currentThread().isInterrupted());
              }
            },
            "interrupted-waiter");
    waiter.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (engine.waiters().size() < 1) {
      assertThat(System.nanoTime() - deadline).as("the waiter queued").isNegative();
      Thread.sleep(5);
    }
    waiter.interrupt();
    waiter.join(TimeUnit.SECONDS.toMillis(20));

    assertThat(waiter.isAlive()).isFalse();
    assertThat(outcome.get())
        .as("neither let through by fail-open nor stripped of its interrupt")
        .isEqualTo("BulkheadFullException, interrupted: true");
    opened[0].cancelsFail = false;
    held.close();
  }

  @Test
  void aReleaseTheStoreFailsIsReportedNotThrownOutOfTheCallWhoseWorkIsDone() {
    start(Map.of());
    BulkheadLimiter limiter = bulkhead("release-fails", 1);
    Permit held = limiter.acquire();
    opened[0].releasesFail = true;

    // the call's work is done: the permit is reclaimed when its lease ends, and the failure is
    // counted and logged, as with a posted release
    assertThatCode(held::close).doesNotThrowAnyException();
    opened[0].releasesFail = false;
  }

  @Test
  void closingTheEngineSendsThePostedReleasesItOwes() throws Exception {
    start(Map.of("bulwark.release", "posted"));
    BulkheadLimiter limiter = bulkhead("owed", 4);
    List<Permit> held = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      held.add(limiter.acquire());
    }
    opened[0].releases.drainPermits();
    held.forEach(Permit::close);
    assertThat(opened[0].local.bulkheadHolders("owed")).isEqualTo(4);
    CountDownLatch closed = new CountDownLatch(1);
    pool.submit(
        () -> {
          engine.close();
          closed.countDown();
        });
    assertThat(closed.await(200, TimeUnit.MILLISECONDS))
        .as("the close waits for the releases it owes")
        .isFalse();
    opened[0].releases.release(Integer.MAX_VALUE);
    assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(opened[0].local.bulkheadHolders("owed")).isZero();
  }

  @Test
  void writeLocksStayExclusiveAndTheirTokensGrowPerKey() throws Exception {
    start(Map.of());
    KeyedLock lock =
        engine.lock(
            new LockDefinition(
                "accounts",
                Origin.programmatic(),
                true,
                LockMode.WRITE,
                Duration.ofSeconds(20),
                Duration.ofSeconds(30),
                Map.of()));
    Map<String, AtomicInteger> holders = new ConcurrentHashMap<>();
    Map<String, ConcurrentLinkedQueue<Long>> tokens = new ConcurrentHashMap<>();
    AtomicInteger overlaps = new AtomicInteger();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int thread = t;
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 30; i++) {
                  String key = "k" + ((thread + i) % 4);
                  try (LockPermit held = lock.lock(key, LockMode.WRITE)) {
                    if (holders.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet()
                        > 1) {
                      overlaps.incrementAndGet();
                    }
                    tokens
                        .computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>())
                        .add(held.fencingToken());
                    holders.get(key).decrementAndGet();
                  }
                }
                return null;
              }));
    }
    for (Future<?> each : done) {
      each.get(50, TimeUnit.SECONDS);
    }
    assertThat(overlaps).hasValue(0);
    assertThat(tokens).hasSize(4);
    tokens.forEach(
        (key, seen) -> {
          List<Long> inOrder = new ArrayList<>(seen);
          assertThat(inOrder).as(key).hasSize(60).isSorted().doesNotHaveDuplicates();
        });
  }

  @Test
  void rateReservationsOfConcurrentCallersShareStoreCallsAndStayWithinTheLimit() throws Exception {
    start(
        Map.of(
            "bulwark.rate-limit.partner.value", "100",
            "bulwark.rate-limit.partner.window", "1h"));
    RateLimiter limiter = engine.registry().rateLimiter("partner");
    AtomicInteger granted = new AtomicInteger();
    AtomicInteger rejected = new AtomicInteger();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 25; i++) {
                  if (limiter.tryAcquire()) {
                    granted.incrementAndGet();
                  } else {
                    rejected.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    for (Future<?> each : done) {
      each.get(50, TimeUnit.SECONDS);
    }
    assertThat(granted).hasValue(100);
    assertThat(rejected).hasValue(100);
    int sent = opened[0].rateBatches.stream().mapToInt(Integer::intValue).sum();
    // the rejections after the first are answered by this JVM (the window has no slot for an hour)
    assertThat(sent).isBetween(101, 200);
    assertThat(opened[0].rateBatches.size()).isLessThan(sent);
  }
}
