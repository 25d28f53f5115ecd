package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.Permit;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.Origin;
import dev.bulwark.core.local.LocalStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BulkheadLimiterTest {

  private final BulwarkEngine engine = Engines.local();
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
    engine.close();
  }

  private BulkheadLimiter limiter(String name, int value, Duration waitingTime) {
    return engine.bulkhead(
        new BulkheadDefinition(
            name,
            Origin.programmatic(),
            true,
            value,
            waitingTime,
            Duration.ofSeconds(30),
            Map.of()));
  }

  @Test
  void failsFastWhenFullAndReleasesOnClose() {
    BulkheadLimiter limiter = limiter("fast", 2, Duration.ZERO);
    Permit first = limiter.acquire();
    Permit second = limiter.acquire();
    assertThatThrownBy(limiter::acquire)
        .isInstanceOf(BulkheadFullException.class)
        .hasMessageContaining("'fast'")
        .satisfies(e -> assertThat(((BulkheadFullException) e).getLimitName()).isEqualTo("fast"));
    first.close();
    first.close(); // twice releases once
    Permit third = limiter.acquire();
    assertThat(limiter.tryAcquire()).isNull();
    second.close();
    third.close();
    assertThat(limiter.stats().granted()).isEqualTo(3);
    assertThat(limiter.stats().rejected()).isEqualTo(2);
  }

  @Test
  void waitersAreServedInArrivalOrderAndNeverAboveTheLimit() throws Exception {
    BulkheadLimiter limiter = limiter("fifo", 1, Duration.ofSeconds(5));
    Permit held = limiter.acquire();
    List<Integer> order = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger maxInside = new AtomicInteger();
    List<Future<?>> calls = new ArrayList<>();
    List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 6; i++) {
      int caller = i;
      CountDownLatch running = new CountDownLatch(1);
      calls.add(
          pool.submit(
              () -> {
                threads.add(Thread.currentThread());
                running.countDown();
                try (Permit permit = limiter.acquire()) {
                  maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                  order.add(caller);
                  inside.decrementAndGet();
                }
                return null;
              }));
      assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
      awaitParked(threads.get(caller));
    }
    held.close();
    for (Future<?> call : calls) {
      call.get(5, TimeUnit.SECONDS);
    }
    assertThat(order).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(maxInside.get()).isEqualTo(1);
    assertThat(limiter.stats().waited()).isEqualTo(6);
  }

  @Test
  void aWaiterThatTimesOutLeavesTheQueueWithoutStrandingAPermit() throws Exception {
    BulkheadLimiter limiter = limiter("timeout", 1, Duration.ofMillis(100));
    Permit held = limiter.acquire();
    long start = System.nanoTime();
    assertThatThrownBy(limiter::acquire).isInstanceOf(BulkheadFullException.class);
    assertThat(System.nanoTime() - start)
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
    held.close();
    // the withdrawn waiter did not take the released permit
    Permit next = limiter.tryAcquire();
    assertThat(next).isNotNull();
    next.close();
  }

  @Test
  void anInterruptedWaiterGivesUpItsPlace() throws Exception {
    BulkheadLimiter limiter = limiter("interrupt", 1, Duration.ofSeconds(10));
    Permit held = limiter.acquire();
    Thread[] waiter = new Thread[1];
    CountDownLatch started = new CountDownLatch(1);
    Future<Throwable> call =
        pool.submit(
            () -> {
              waiter[0] = Thread.currentThread();
              started.countDown();
              try {
                limiter.acquire().close();
                return null;
              } catch (BulkheadFullException e) {
                return e;
              }
            });
    assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
    awaitParked(waiter[0]);
    waiter[0].interrupt();
    assertThat(call.get(5, TimeUnit.SECONDS))
        .isInstanceOf(BulkheadFullException.class)
        .hasCauseInstanceOf(InterruptedException.class);
    held.close();
    Permit next = limiter.tryAcquire();
    assertThat(next).isNotNull();
    next.close();
  }

  @Test
  void underContentionNeverAboveTheLimitAndNoWaiterIsStranded() throws Exception {
    BulkheadLimiter limiter = limiter("contended", 3, Duration.ofSeconds(10));
    try (Permit first = limiter.acquire()) {
      assertThat(((LocalStore) engine.store()).bulkheadHolders("contended")).isEqualTo(1);
    }
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger maxInside = new AtomicInteger();
    AtomicInteger completed = new AtomicInteger();
    int threads = 8;
    int rounds = 3000;
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      workers.add(
          pool.submit(
              () -> {
                for (int i = 0; i < rounds; i++) {
                  Permit permit = limiter.acquire();
                  try {
                    maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    Thread.onSpinWait();
                    inside.decrementAndGet();
                  } finally {
                    permit.close();
                  }
                  completed.incrementAndGet();
                }
                return null;
              }));
    }
    for (Future<?> worker : workers) {
      worker.get(60, TimeUnit.SECONDS);
    }
    assertThat(maxInside.get()).isLessThanOrEqualTo(3);
    assertThat(completed.get()).isEqualTo(threads * rounds);
    assertThat(limiter.stats().rejected()).isZero();
    assertThat(((LocalStore) engine.store()).bulkheadHolders("contended")).isZero();
    assertThat(engine.waiters().size()).isZero();
  }

  static void awaitParked(Thread thread) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (thread.getState() != Thread.State.TIMED_WAITING
        && thread.getState() != Thread.State.WAITING) {
      assertThat(System.nanoTime()).as("thread parks in time").isLessThan(deadline);
      Thread.sleep(1);
    }
  }
}
