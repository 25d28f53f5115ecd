package dev.bulwark.jpa.container;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The store on a container's persistence unit or data source, opened by its first operation rather
 * than when the engine starts. A container may make them usable only after the application scope
 * has started, when the engine already runs (Quarkus initializes Hibernate ORM then; Payara binds a
 * WAR's {@code java:app} data sources after CDI started). Until the unit can be used an operation
 * fails as a store failure, and the next one tries again. A definition the engine records before
 * then is kept and recorded when the store opens (by {@link #openNow} when the application has
 * started, or by the first operation), a conflict with another JVM's record reported then.
 */
final class OpenedOnFirstUse implements BulwarkStore {

  private static final BulwarkLog LOG = BulwarkLog.of(OpenedOnFirstUse.class);

  private final Supplier<BulwarkStore> opener;
  private final String where;
  private final Duration wakeUpCheckInterval;
  private final Object lock = new Object();
  private final PendingDefinitions pending = new PendingDefinitions();
  private volatile BulwarkStore opened;
  private boolean closed;

  /** Forwarders the engine keeps: each call goes to the store, opened by the first. */
  private final PermitStore permits =
      new PermitStore() {
        @Override
        public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
          return store().permits().acquire(spec, requestId, mayQueue);
        }

        @Override
        public Grant poll(PermitSpec spec, long requestId) {
          return store().permits().poll(spec, requestId);
        }

        @Override
        public Grant cancel(PermitSpec spec, long requestId) {
          return store().permits().cancel(spec, requestId);
        }

        @Override
        public Optional<String> define(PermitSpec spec) {
          return OpenedOnFirstUse.this.define(
              "bulkhead '" + spec.name() + "'",
              spec.definition(),
              store -> store.permits().define(spec));
        }

        @Override
        public boolean release(PermitSpec spec, long requestId) {
          return store().permits().release(spec, requestId);
        }

        @Override
        public BulkheadSnapshot inspect(PermitSpec spec) {
          return store().permits().inspect(spec);
        }
      };

  private final LockStore locks =
      new LockStore() {
        @Override
        public Grant acquire(
            LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
          return store().locks().acquire(spec, key, mode, requestId, mayQueue);
        }

        @Override
        public Grant poll(LockSpec spec, String key, long requestId) {
          return store().locks().poll(spec, key, requestId);
        }

        @Override
        public Grant cancel(LockSpec spec, String key, long requestId) {
          return store().locks().cancel(spec, key, requestId);
        }

        @Override
        public boolean release(LockSpec spec, String key, long requestId) {
          return store().locks().release(spec, key, requestId);
        }

        @Override
        public LockKeySnapshot inspect(LockSpec spec, String key) {
          return store().locks().inspect(spec, key);
        }
      };

  private final RateStore rates =
      new RateStore() {
        @Override
        public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
          return store().rates().reserve(spec, maxWaitNanos);
        }

        @Override
        public RateLimitSnapshot inspect(RateSpec spec) {
          return store().rates().inspect(spec);
        }

        @Override
        public Optional<String> define(RateSpec spec) {
          return OpenedOnFirstUse.this.define(
              "rate limit '" + spec.name() + "'",
              spec.definition(),
              store -> store.rates().define(spec));
        }
      };

  /**
   * @param where what the store works on, for messages: {@code persistence unit h2}, {@code data
   *     source java:app/jdbc/bulwark}
   */
  OpenedOnFirstUse(Supplier<BulwarkStore> opener, String where, Duration wakeUpCheckInterval) {
    this.opener = opener;
    this.where = where;
    this.wakeUpCheckInterval = wakeUpCheckInterval;
  }

  private BulwarkStore store() {
    BulwarkStore store = opened;
    if (store != null) {
      return store;
    }
    synchronized (lock) {
      store = openedNow();
    }
    pending.recordOn(store);
    return store;
  }

  /** Opens the store unless it is open; fails as a store failure while it cannot be. */
  private BulwarkStore openedNow() {
    if (closed) {
      throw new StoreException("Bulwark JPA store on " + where + ": closed");
    }
    if (opened == null) {
      try {
        opened = opener.get();
      } catch (RuntimeException e) {
        throw new StoreException("Bulwark JPA store: " + where + " cannot be used yet: " + e, e);
      }
    }
    return opened;
  }

  /**
   * Records a definition on the store, or, while it cannot be opened, keeps it for when it opens
   * and answers that there is nothing to report yet.
   */
  private Optional<String> define(
      String limit, String definition, Function<BulwarkStore, Optional<String>> define) {
    BulwarkStore store = opened;
    if (store == null) {
      synchronized (lock) {
        try {
          store = openedNow();
        } catch (StoreException notYet) {
          // under the lock: the store cannot open meanwhile and miss this definition
          pending.add(limit, definition, define);
          LOG.debug("Bulwark: " + limit + " is recorded once the store opens", notYet);
          return Optional.empty();
        }
      }
      pending.recordOn(store);
    }
    return define.apply(store);
  }

  /**
   * Opens the store now if it can be, recording the definitions kept until then; when it cannot,
   * the first operation tries again.
   */
  void openNow() {
    try {
      store();
    } catch (StoreException e) {
      LOG.debug("Bulwark: the JPA store opens on its first operation instead", e);
    }
  }

  @Override
  public PermitStore permits() {
    return permits;
  }

  @Override
  public RateStore rates() {
    return rates;
  }

  @Override
  public LockStore locks() {
    return locks;
  }

  @Override
  public boolean leasesExpire() {
    return true;
  }

  @Override
  public List<Lease> renew(List<Lease> leases) {
    return store().renew(leases);
  }

  @Override
  public Duration wakeUpCheckInterval() {
    return wakeUpCheckInterval;
  }

  /** -1 until the store is opened: a waiter then polls on the interval. */
  @Override
  public long wakeUpEpoch() {
    BulwarkStore store = opened;
    return store == null ? -1 : store.wakeUpEpoch();
  }

  @Override
  public void close() {
    BulwarkStore store;
    synchronized (lock) {
      if (closed) {
        // closed when the application stopped, before the engine closes it
        return;
      }
      closed = true;
      store = opened;
    }
    if (store != null) {
      store.close();
    }
  }
}
