package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A waiter polls only when a wake-up can have been lost: while the store's wake-up epoch stays the
 * same it waits for the hand-over notice and its share of the limit's one check per interval (an
 * interval of an hour here, so none falls due); when the epoch changes it asks the store once (and
 * so finds a grant whose notice was lost); while the epoch is -1 it polls on the check interval;
 * and a queued request whose lease the store lost asks at once. The waiters of one limit share one
 * check per interval between them. Synchronous and asynchronous waiters alike.
 */
@Timeout(30)
class TrustedWakeUpsTest {

  private final SwitchableStore[] store = new SwitchableStore[1];

  private BulwarkEngine engine() {
    return engine(Duration.ofHours(1));
  }

  private BulwarkEngine engine(Duration checkInterval) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", SwitchableStore.ID);
    config.put("bulwark.bulkhead.single.value", "1");
    config.put("bulwark.bulkhead.single.waiting-time", "20s");
    // renewed after a third of its lease: a lease lost shows within 200 ms
    config.put("bulwark.bulkhead.short-lease.value", "1");
    config.put("bulwark.bulkhead.short-lease.waiting-time", "20s");
    config.put("bulwark.bulkhead.short-lease.lease", "600ms");
    BulwarkEngine engine =
        BulwarkEngine.builder(ConfigLookup.of(config))
            .stores(List.of(SwitchableStore.provider(store)))
            .start();
    store[0].checkInterval = checkInterval; // read by each waiter as it starts to wait
    return engine;
  }

  /** A waiter of each kind: a thread blocked in acquire, or an asynchronous acquire's stage. */
  private static final Map<String, Function<BulkheadHandle, CompletableFuture<Permit>>> WAITERS =
      Map.of(
          "thread",
          bulkhead -> CompletableFuture.supplyAsync(bulkhead::acquire),
          "async",
          bulkhead -> bulkhead.acquireAsync().toCompletableFuture());

  private CompletableFuture<Permit> queue(BulwarkEngine engine, String kind) {
    return queue(engine.programmatic().bulkhead("single"), kind);
  }

  private CompletableFuture<Permit> queue(BulkheadHandle bulkhead, String kind) {
    CompletableFuture<Permit> waiter = WAITERS.get(kind).apply(bulkhead);
    waitUntil("the waiter queued", () -> bulkhead.inspect().queued() == 1);
    return waiter;
  }

  @ParameterizedTest
  @ValueSource(strings = {"thread", "async"})
  void whileTheEpochStaysTheWaiterNeverPollsAndTheNoticeHandsItThePermit(String kind)
      throws Exception {
    try (BulwarkEngine engine = engine()) {
      store[0].epoch = 7;
      Permit held = engine.programmatic().bulkhead("single").acquire();
      CompletableFuture<Permit> waiter = queue(engine, kind);
      // ten check intervals: a waiter on the interval would have polled about ten times
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
      assertThat(waiter).isNotDone();
      held.close();
      waiter.get(5, TimeUnit.SECONDS).close();
      assertThat(store[0].polls).hasValue(0);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"thread", "async"})
  void aNoticeLostBeforeTheEpochChangedIsFoundByOnePoll(String kind) throws Exception {
    try (BulwarkEngine engine = engine()) {
      store[0].epoch = 7;
      Permit held = engine.programmatic().bulkhead("single").acquire();
      CompletableFuture<Permit> waiter = queue(engine, kind);
      store[0].dropNotices = true;
      held.close(); // the store hands the permit over; the notice is lost
      assertThat(engine.programmatic().bulkhead("single").inspect().queued()).isZero();
      assertThat(waiter).isNotDone();
      assertThat(store[0].polls).hasValue(0);

      store[0].changeEpoch(8); // the subscription came back
      waiter.get(5, TimeUnit.SECONDS).close();
      assertThat(store[0].polls).hasValue(1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"thread", "async"})
  void whileTheEpochIsUnknownTheWaiterPollsOnTheInterval(String kind) throws Exception {
    try (BulwarkEngine engine = engine(Duration.ofMillis(50))) {
      store[0].epoch = 7;
      Permit held = engine.programmatic().bulkhead("single").acquire();
      CompletableFuture<Permit> waiter = queue(engine, kind);
      store[0].changeEpoch(-1); // the subscription is down
      waitUntil("three polls on the interval", () -> store[0].polls.get() >= 3);
      store[0].dropNotices = true;
      held.close();
      waiter.get(5, TimeUnit.SECONDS).close(); // found by a poll
    }
  }

  @Test
  void aQueuedRequestWhoseLeaseWasLostAsksTheStoreAtOnce() throws Exception {
    try (BulwarkEngine engine = engine()) {
      store[0].epoch = 7;
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("short-lease");
      Permit held = bulkhead.acquire();
      CompletableFuture<Permit> waiter = queue(bulkhead, "thread");
      store[0].revokeAll = true; // the next renewal reports every lease lost
      waitUntil("the waiter asked", () -> store[0].polls.get() >= 1);
      store[0].revokeAll = false;
      held.close();
      waiter.get(5, TimeUnit.SECONDS).close();
    }
  }

  @Test
  void theWaitersOfALimitShareOneCheckPerIntervalBetweenThem() throws Exception {
    int waiters = 20;
    try (BulwarkEngine engine = engine(Duration.ofMillis(50))) {
      store[0].epoch = 7;
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("single");
      Permit held = bulkhead.acquire();
      List<CompletableFuture<Void>> queued = new ArrayList<>();
      for (int i = 0; i < waiters; i++) {
        // each gives the permit back at once: the queue is served in its own order
        queued.add(
            WAITERS.get(i % 2 == 0 ? "thread" : "async").apply(bulkhead).thenAccept(Permit::close));
      }
      waitUntil("all queued", () -> bulkhead.inspect().queued() == waiters);
      int before = store[0].polls.get();
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
      int polls = store[0].polls.get() - before;
      // one per interval between them: about 20 in a second, where one per waiter and interval
      // would be 400
      assertThat(polls).isBetween(5, 2 * waiters);
      held.close();
      CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }
  }

  /**
   * 200 callers wait, then 190 withdraw: the 10 left keep their limit's one check per interval
   * (about 20 in a second), as a waiter that alone stays behind a holder that died needs. A share
   * of the checks drawn while 200 waited (each every 5 to 15 s) left them none for seconds.
   */
  @Test
  void theLimitsCheckKeepsItsIntervalWhenMostOfItsWaitersLeave() throws Exception {
    int waiters = 200;
    int staying = 10;
    try (BulwarkEngine engine = engine(Duration.ofMillis(50))) {
      store[0].epoch = 7;
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("single");
      Permit held = bulkhead.acquire();
      List<CompletableFuture<Permit>> queued = new ArrayList<>();
      for (int i = 0; i < waiters; i++) {
        queued.add(bulkhead.acquireAsync().toCompletableFuture());
      }
      waitUntil("all queued", () -> bulkhead.inspect().queued() == waiters);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
      // the first to queue leave: those that stay queued when all the others waited already
      for (CompletableFuture<Permit> leaving : queued.subList(0, waiters - staying)) {
        leaving.cancel(false);
      }
      waitUntil("the others withdrawn", () -> bulkhead.inspect().queued() == staying);

      int before = store[0].polls.get();
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
      int polls = store[0].polls.get() - before;
      // one per 50 ms interval: about 20, and never one per waiter and interval (200)
      assertThat(polls).as("polls in one second").isBetween(5, 2 * staying * 2);
      held.close();
      for (CompletableFuture<Permit> stayed : queued.subList(waiters - staying, waiters)) {
        stayed.get(10, TimeUnit.SECONDS).close();
      }
    }
  }

  static void waitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("not reached within 10 s: %s", what).isNegative();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
