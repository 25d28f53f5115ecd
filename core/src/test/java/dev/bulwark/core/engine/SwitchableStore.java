package dev.bulwark.core.engine;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.core.local.LocalStore;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PartialRenewalException;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreContext;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A store for engine tests: the local store's semantics, but it can be switched off like an
 * unreachable server, its leases expire, and it records and can revoke them. It stands in for a
 * remote store only to exercise the engine's own logic; stores are tested against real servers.
 */
final class SwitchableStore implements BulwarkStore {

  static final String ID = "switchable";

  volatile boolean down;
  volatile boolean closed;
  final List<List<Lease>> renewals = new ArrayList<>();

  /** The store has lost every lease: renewals report them lost, releases report them gone. */
  volatile boolean revokeAll;

  /** Leases of this name sit on a part of the store that does not answer (a failed node). */
  volatile String unreachableLease;

  /** What {@link #wakeUpCheckInterval()} answers. */
  volatile Duration checkInterval = Duration.ofMillis(50);

  /** What {@link #wakeUpEpoch()} answers; -1 (the default) keeps waiters polling. */
  volatile long epoch = -1;

  /** Hand-over notices are lost on the way to the engine (a broken subscription). */
  volatile boolean dropNotices;

  /**
   * The next permit poll finds its request dropped (as a store whose lease for it ran out): the
   * request leaves the queue and the poll answers REJECTED.
   */
  volatile boolean dropNextPolled;

  /** How many polls (permits and locks) reached the store. */
  final AtomicInteger polls = new AtomicInteger();

  /** How long a permit acquire's answer takes to come back once the store decided it. */
  volatile Duration acquireReplyDelay = Duration.ZERO;

  /** How long a rate reservation's answer takes to come back once the store decided it. */
  volatile Duration rateReplyDelay = Duration.ZERO;

  /** The rate reservations the store decided, in order. */
  final List<RateReservation> reservations = new CopyOnWriteArrayList<>();

  /** A rate reservation as the store decided it: when ({@link System#nanoTime}) and what. */
  record RateReservation(long decidedNanos, RateDecision decision) {}

  private final LocalStore local;
  private final GrantListener listener;

  SwitchableStore(StoreContext context) {
    this.listener = context.grantListener();
    this.local =
        new LocalStore(
            (requestId, token) -> {
              if (!dropNotices) {
                listener.granted(requestId, token);
              }
            });
  }

  /** Moves the wake-up epoch on and tells the engine, as a store whose subscription came back. */
  void changeEpoch(long to) {
    epoch = to;
    listener.wakeUpsChanged();
  }

  @Override
  public long wakeUpEpoch() {
    return epoch;
  }

  static BulwarkStoreProvider provider(SwitchableStore[] opened) {
    return new BulwarkStoreProvider() {
      @Override
      public String id() {
        return ID;
      }

      @Override
      public BulwarkStore open(StoreContext context) {
        opened[0] = new SwitchableStore(context);
        return opened[0];
      }
    };
  }

  /** Answers unless switched off, like a remote store's probe. */
  @Override
  public void probe() {
    check();
  }

  private void check() {
    if (down) {
      throw new StoreException("connection refused (test)");
    }
  }

  @Override
  public PermitStore permits() {
    PermitStore permits = local.permits();
    return new PermitStore() {
      @Override
      public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
        check();
        Grant grant = permits.acquire(spec, requestId, mayQueue);
        long replyNanos = acquireReplyDelay.toNanos();
        if (replyNanos > 0) {
          LockSupport.parkNanos(replyNanos); // the answer's way back, as over a slow network
        }
        return grant;
      }

      @Override
      public Grant poll(PermitSpec spec, long requestId) {
        check();
        polls.incrementAndGet();
        if (dropNextPolled) {
          dropNextPolled = false;
          permits.cancel(spec, requestId);
          return Grant.REJECTED;
        }
        return permits.poll(spec, requestId);
      }

      @Override
      public Grant cancel(PermitSpec spec, long requestId) {
        check();
        return permits.cancel(spec, requestId);
      }

      @Override
      public boolean release(PermitSpec spec, long requestId) {
        check();
        return permits.release(spec, requestId) && !revokeAll;
      }

      @Override
      public BulkheadSnapshot inspect(PermitSpec spec) {
        return permits.inspect(spec);
      }
    };
  }

  @Override
  public RateStore rates() {
    return (RateSpec spec, long maxWaitNanos) -> {
      check();
      RateDecision decision = local.rates().reserve(spec, maxWaitNanos);
      reservations.add(new RateReservation(System.nanoTime(), decision));
      long replyNanos = rateReplyDelay.toNanos();
      if (replyNanos > 0) {
        LockSupport.parkNanos(replyNanos); // the answer's way back, as over a slow network
      }
      return decision;
    };
  }

  @Override
  public LockStore locks() {
    LockStore locks = local.locks();
    return new LockStore() {
      @Override
      public Grant acquire(
          LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
        check();
        return locks.acquire(spec, key, mode, requestId, mayQueue);
      }

      @Override
      public Grant poll(LockSpec spec, String key, long requestId) {
        check();
        polls.incrementAndGet();
        return locks.poll(spec, key, requestId);
      }

      @Override
      public Grant cancel(LockSpec spec, String key, long requestId) {
        check();
        return locks.cancel(spec, key, requestId);
      }

      @Override
      public boolean release(LockSpec spec, String key, long requestId) {
        check();
        return locks.release(spec, key, requestId) && !revokeAll;
      }
    };
  }

  @Override
  public boolean leasesExpire() {
    return true;
  }

  @Override
  public synchronized List<Lease> renew(List<Lease> leases) {
    if (unreachableLease != null) {
      List<Lease> notRenewed =
          leases.stream().filter(l -> l.name().equals(unreachableLease)).toList();
      if (!notRenewed.isEmpty()) {
        renewals.add(leases.stream().filter(l -> !notRenewed.contains(l)).toList());
        throw new PartialRenewalException(
            "part of the store did not answer (test)", null, List.of(), notRenewed);
      }
    }
    check();
    renewals.add(List.copyOf(leases));
    return revokeAll ? List.copyOf(leases) : List.of();
  }

  @Override
  public Duration wakeUpCheckInterval() {
    return checkInterval;
  }

  @Override
  public void close() {
    closed = true;
  }
}
