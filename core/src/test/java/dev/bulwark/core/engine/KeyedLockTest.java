package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.LockContext;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.Origin;
import dev.bulwark.core.local.LocalStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KeyedLockTest {

  private final BulwarkEngine engine = Engines.local();
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
    engine.close();
  }

  private KeyedLock lock(String name, Duration waitingTime) {
    return engine.lock(
        new LockDefinition(
            name,
            Origin.programmatic(),
            true,
            LockMode.WRITE,
            waitingTime,
            Duration.ofSeconds(30),
            Map.of()));
  }

  /** Runs {@code work} on a thread of its own: lock ownership is per thread. */
  private static <T> T onOtherThread(Callable<T> work) throws Exception {
    FutureTask<T> task = new FutureTask<>(work);
    Thread thread = new Thread(task);
    thread.start();
    return task.get(5, TimeUnit.SECONDS);
  }

  @Test
  void readersShareAWriterExcludesAndOtherKeysAreFree() throws Exception {
    KeyedLock lock = lock("shared", Duration.ZERO);
    LockPermit r1 = onOtherThread(() -> lock.lock("a", LockMode.READ));
    LockPermit r2 = onOtherThread(() -> lock.lock("a", LockMode.READ));
    assertThat(lock.tryLock("a", LockMode.WRITE)).isEmpty();
    LockPermit b = onOtherThread(() -> lock.lock("b", LockMode.WRITE));
    r1.close();
    assertThat(lock.tryLock("a", LockMode.WRITE)).isEmpty();
    r2.close();
    LockPermit w = onOtherThread(() -> lock.lock("a", LockMode.WRITE));
    assertThat(lock.tryLock("a", LockMode.READ)).isEmpty();
    assertThatThrownBy(() -> lock.lock("a", LockMode.WRITE))
        .isInstanceOf(LockTimeoutException.class)
        .satisfies(e -> assertThat(((LockTimeoutException) e).getLockKey()).isEqualTo("a"));
    w.close();
    b.close();
    lock.tryLock("a", LockMode.WRITE).orElseThrow().close();
  }

  @Test
  void aQueuedWriterHoldsBackLaterReaders() throws Exception {
    KeyedLock lock = lock("preference", Duration.ofSeconds(5));
    LockPermit reader = onOtherThread(() -> lock.lock("k", LockMode.READ));
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    Thread[] writerThread = new Thread[1];
    CountDownLatch writerStarted = new CountDownLatch(1);
    Future<?> writer =
        pool.submit(
            () -> {
              writerThread[0] = Thread.currentThread();
              writerStarted.countDown();
              try (LockPermit w = lock.lock("k", LockMode.WRITE)) {
                order.add("writer");
              }
              return null;
            });
    assertThat(writerStarted.await(5, TimeUnit.SECONDS)).isTrue();
    BulkheadLimiterTest.awaitParked(writerThread[0]);
    // a new reader must not overtake the queued writer
    assertThat(lock.tryLock("k", LockMode.READ)).isEmpty();
    Future<?> lateReader =
        pool.submit(
            () -> {
              try (LockPermit r = lock.lock("k", LockMode.READ)) {
                order.add("late reader");
              }
              return null;
            });
    reader.close();
    writer.get(5, TimeUnit.SECONDS);
    lateReader.get(5, TimeUnit.SECONDS);
    assertThat(order).containsExactly("writer", "late reader");
  }

  @Test
  void fencingTokensOfSuccessiveWritesIncrease() {
    KeyedLock lock = lock("fencing", Duration.ZERO);
    long previous = 0;
    for (int i = 0; i < 5; i++) {
      try (LockPermit permit = lock.lock("account-1", LockMode.WRITE)) {
        assertThat(permit.fencingToken()).isGreaterThan(previous);
        assertThat(LockContext.fencingToken()).isEqualTo(permit.fencingToken());
        previous = permit.fencingToken();
      }
    }
    assertThat(LockContext.current()).isEmpty();
  }

  @Test
  void nestedUseOnOneThreadIsReentrantAndUpgradeIsRefused() throws Exception {
    KeyedLock lock = lock("nested", Duration.ofMillis(50));
    try (LockPermit outer = lock.lock("k", LockMode.WRITE)) {
      try (LockPermit inner = lock.lock("k", LockMode.WRITE)) {
        assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
      }
      try (LockPermit read = lock.lock("k", LockMode.READ)) {
        assertThat(read.mode()).isEqualTo(LockMode.WRITE);
      }
    }
    try (LockPermit read = lock.lock("k", LockMode.READ)) {
      assertThatThrownBy(() -> lock.lock("k", LockMode.WRITE))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("upgrading");
    }
    // everything was released: another thread can write at once
    assertThat(LockContext.current()).isEmpty();
    onOtherThread(() -> lock.tryLock("k", LockMode.WRITE)).orElseThrow().close();
  }

  @Test
  void idleKeysLeaveNoState() {
    KeyedLock lock = lock("many", Duration.ZERO);
    try (LockPermit a = lock.lock("held-a", LockMode.WRITE);
        LockPermit b = lock.lock("held-b", LockMode.READ)) {
      assertThat(((LocalStore) engine.store()).lockedKeys("many")).isEqualTo(2);
    }
    for (int i = 0; i < 1_000_000; i++) {
      lock.lock("key-" + i, (i & 1) == 0 ? LockMode.WRITE : LockMode.READ).close();
    }
    assertThat(((LocalStore) engine.store()).lockedKeys("many")).isZero();
  }
}
