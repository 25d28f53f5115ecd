package dev.bulwark.core.engine;

import dev.bulwark.LockMode;
import dev.bulwark.core.local.LocalStore;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreContext;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A store for engine tests that says it batches: the local store's semantics, each batch applied
 * through the SPI's one-at-a-time defaults under one monitor (so it is one atomic step), after a
 * pause that stands for a round trip, so that callers coalesce as they do in front of a server. It
 * records every batch it was sent, and a test can hold releases back. It exercises the engine's
 * batch queues only; the stores' own batches are tested against real servers.
 */
final class BatchingStore implements BulwarkStore {

  static final String ID = "batching";

  /** Every batch's operations, in the order the batches were applied. */
  final ConcurrentLinkedQueue<List<Operation>> batches = new ConcurrentLinkedQueue<>();

  /** Every rate batch's size. */
  final ConcurrentLinkedQueue<Integer> rateBatches = new ConcurrentLinkedQueue<>();

  /** Batches holding a release wait for a permit here; open (unbounded) unless a test closes it. */
  final Semaphore releases = new Semaphore(Integer.MAX_VALUE);

  final LocalStore local;
  private final long roundTripNanos;

  /** Set by a test: a bulkhead's withdrawals fail as a store that cannot be reached. */
  volatile boolean cancelsFail;

  /** Set by a test: a bulkhead's releases fail as a store that cannot be reached. */
  volatile boolean releasesFail;

  private BatchingStore(StoreContext context, Duration roundTrip) {
    this.local = new LocalStore(context.grantListener());
    this.roundTripNanos = roundTrip.toNanos();
  }

  static BulwarkStoreProvider provider(BatchingStore[] opened, Duration roundTrip) {
    return new BulwarkStoreProvider() {
      @Override
      public String id() {
        return ID;
      }

      @Override
      public BulwarkStore open(StoreContext context) {
        opened[0] = new BatchingStore(context, roundTrip);
        return opened[0];
      }
    };
  }

  @Override
  public boolean batches() {
    return true;
  }

  private void travel(List<Operation> operations) {
    if (operations.stream().anyMatch(op -> op.kind() == Operation.Kind.RELEASE)) {
      try {
        if (!releases.tryAcquire(10, TimeUnit.SECONDS)) {
          throw new AssertionError("a test held releases back for 10 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      releases.release();
    }
    LockSupport.parkNanos(roundTripNanos);
  }

  @Override
  public PermitStore permits() {
    PermitStore permits = local.permits();
    return new PermitStore() {
      @Override
      public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
        return permits.acquire(spec, requestId, mayQueue);
      }

      @Override
      public Grant poll(PermitSpec spec, long requestId) {
        return permits.poll(spec, requestId);
      }

      @Override
      public Grant cancel(PermitSpec spec, long requestId) {
        if (cancelsFail) {
          throw new StoreException("the test's store refuses withdrawals");
        }
        return permits.cancel(spec, requestId);
      }

      @Override
      public boolean release(PermitSpec spec, long requestId) {
        if (releasesFail) {
          throw new StoreException("the test's store refuses releases");
        }
        return permits.release(spec, requestId);
      }

      @Override
      public List<Grant> apply(PermitSpec spec, List<Operation> operations) {
        travel(operations);
        synchronized (BatchingStore.this) {
          batches.add(List.copyOf(operations));
          return PermitStore.super.apply(spec, operations);
        }
      }
    };
  }

  @Override
  public LockStore locks() {
    LockStore locks = local.locks();
    return new LockStore() {
      @Override
      public Grant acquire(
          LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
        return locks.acquire(spec, key, mode, requestId, mayQueue);
      }

      @Override
      public Grant poll(LockSpec spec, String key, long requestId) {
        return locks.poll(spec, key, requestId);
      }

      @Override
      public Grant cancel(LockSpec spec, String key, long requestId) {
        return locks.cancel(spec, key, requestId);
      }

      @Override
      public boolean release(LockSpec spec, String key, long requestId) {
        return locks.release(spec, key, requestId);
      }

      @Override
      public List<Grant> apply(LockSpec spec, List<Operation> operations) {
        travel(operations);
        synchronized (BatchingStore.this) {
          batches.add(List.copyOf(operations));
          return LockStore.super.apply(spec, operations);
        }
      }
    };
  }

  @Override
  public RateStore rates() {
    RateStore rates = local.rates();
    return new RateStore() {
      @Override
      public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
        // a store call too: the engine sends a lone reservation this way
        LockSupport.parkNanos(roundTripNanos);
        synchronized (BatchingStore.this) {
          rateBatches.add(1);
          return rates.reserve(spec, maxWaitNanos);
        }
      }

      @Override
      public List<RateDecision> reserveEach(RateSpec spec, long[] maxWaitNanos) {
        LockSupport.parkNanos(roundTripNanos);
        synchronized (BatchingStore.this) {
          rateBatches.add(maxWaitNanos.length);
          // the local store's own, not the default, which would count each one again in reserve
          return rates.reserveEach(spec, maxWaitNanos);
        }
      }
    };
  }

  @Override
  public boolean leasesExpire() {
    return false;
  }

  @Override
  public List<Lease> renew(List<Lease> leases) {
    return List.of();
  }

  @Override
  public Duration wakeUpCheckInterval() {
    return Duration.ZERO;
  }

  @Override
  public void close() {}
}
