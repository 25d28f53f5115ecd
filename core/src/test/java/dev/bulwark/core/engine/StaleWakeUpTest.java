package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Permit;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.Origin;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A hand-over notice that may be stale is not taken as a grant. The store here plays the case a
 * model check of the Redis store found: the acquire's first run queued the request and was handed
 * the permit, its reply was lost, and the call was re-sent more than a lease later, so the store
 * queued the request afresh while the old hand-over's notice reaches the JVM. The notice arrives
 * past half a lease after the request registered: the waiter must ask the store before it holds.
 */
class StaleWakeUpTest {

  private static final Duration LEASE = Duration.ofMillis(100);

  private final ReplayedPermits permits = new ReplayedPermits();
  private BulwarkEngine engine;

  @AfterEach
  void stop() {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void aNoticeLaterThanHalfALeaseIsConfirmedByAPollBeforeTheCallHolds() throws Exception {
    permits.noticeDuringAcquireAfter = LEASE.multipliedBy(2);
    BulkheadLimiter limiter = bulkhead(LEASE);

    CompletableFuture<Permit> call =
        CompletableFuture.supplyAsync(() -> limiter.acquire(TimeUnit.SECONDS.toNanos(30)));

    assertThat(permits.firstPoll.await(10, TimeUnit.SECONDS))
        .as("the stale notice was checked with the store")
        .isTrue();
    assertThat(call).as("held on a notice the store's poll contradicted").isNotDone();

    permits.handOver(); // now the store really hands the permit over, and says so
    try (Permit permit = call.get(10, TimeUnit.SECONDS)) {
      assertThat(permit).isNotNull();
    }
    assertThat(permits.polls.get()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void anAsynchronousWaitConfirmsALateNoticeTheSameWay() throws Exception {
    permits.noticeDuringAcquireAfter = LEASE.multipliedBy(2);
    BulkheadLimiter limiter = bulkhead(LEASE);

    CompletableFuture<Permit> call = limiter.acquireAsync(TimeUnit.SECONDS.toNanos(30));

    assertThat(permits.firstPoll.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(call).as("held on a notice the store's poll contradicted").isNotDone();

    permits.handOver();
    try (Permit permit = call.get(10, TimeUnit.SECONDS)) {
      assertThat(permit).isNotNull();
    }
    assertThat(permits.polls.get()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void aNoticeWithinHalfALeaseIsTrustedWithoutAPoll() throws Exception {
    permits.noticeDuringAcquireAfter = Duration.ZERO;
    permits.handOver();
    BulkheadLimiter limiter = bulkhead(Duration.ofMinutes(10));

    try (Permit permit = limiter.acquire(TimeUnit.SECONDS.toNanos(30))) {
      assertThat(permit).isNotNull();
    }
    assertThat(permits.polls.get()).isZero();
  }

  private BulkheadLimiter bulkhead(Duration lease) {
    engine =
        BulwarkEngine.start(
            ConfigLookup.of(Map.of("bulwark.store", ReplayedStore.ID)),
            List.of(ReplayedStore.provider(permits)));
    return engine.bulkhead(
        new BulkheadDefinition(
            "replayed", Origin.programmatic(), true, 1, Duration.ofSeconds(30), lease, Map.of()));
  }

  /**
   * One bulkhead's store side, scripted: every acquire queues, and sends its request's notice after
   * {@link #noticeDuringAcquireAfter}; a poll answers held only after {@link #handOver}.
   */
  private static final class ReplayedPermits implements PermitStore {

    volatile Duration noticeDuringAcquireAfter = Duration.ZERO;
    final AtomicInteger polls = new AtomicInteger();
    final CountDownLatch firstPoll = new CountDownLatch(1);
    private volatile boolean handedOver;
    private volatile long queued = -1;
    private volatile GrantListener listener;

    void handOver() {
      handedOver = true;
      long request = queued;
      if (request >= 0) {
        listener.granted(request, 0);
      }
    }

    @Override
    public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
      sleep(noticeDuringAcquireAfter);
      listener.granted(requestId, 0);
      queued = requestId;
      return Grant.QUEUED;
    }

    @Override
    public Grant poll(PermitSpec spec, long requestId) {
      Grant answer = handedOver ? Grant.GRANTED : Grant.QUEUED;
      polls.incrementAndGet();
      firstPoll.countDown();
      return answer;
    }

    @Override
    public Grant cancel(PermitSpec spec, long requestId) {
      return handedOver ? Grant.GRANTED : Grant.REJECTED;
    }

    @Override
    public boolean release(PermitSpec spec, long requestId) {
      return handedOver;
    }

    private static void sleep(Duration duration) {
      try {
        Thread.sleep(duration.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private record ReplayedStore(PermitStore permits) implements BulwarkStore {

    static final String ID = "replayed";

    static BulwarkStoreProvider provider(ReplayedPermits permits) {
      return new BulwarkStoreProvider() {
        @Override
        public String id() {
          return ID;
        }

        @Override
        public BulwarkStore open(StoreContext context) {
          permits.listener = context.grantListener();
          return new ReplayedStore(permits);
        }
      };
    }

    @Override
    public RateStore rates() {
      throw new UnsupportedOperationException();
    }

    @Override
    public LockStore locks() {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean leasesExpire() {
      return true;
    }

    @Override
    public List<Lease> renew(List<Lease> leases) {
      return List.of();
    }

    /** Polls come only from the engine's doubt of a notice, not from its periodic check. */
    @Override
    public Duration wakeUpCheckInterval() {
      return Duration.ofHours(1);
    }

    @Override
    public void close() {}
  }
}
