package dev.bulwark.jpa;

import dev.bulwark.core.outage.OutageGate;
import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.setup.TableNames;
import dev.bulwark.jpa.tx.Failure;
import dev.bulwark.jpa.tx.ReadCommittedUnitOfWork;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.jpa.tx.Transactions;
import dev.bulwark.jpa.tx.UnitOfWork;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import javax.sql.DataSource;

/**
 * The JPA store: bulkheads, locks and rate limits as rows of a few tables in the application's
 * database, each operation, or each batch of operations on one limit, one short transaction of its
 * own on the database's clock. Leases run out unless renewed; waiters in this JVM are woken by the
 * call that grants them, waiters in other JVMs within the wake-up check interval (on PostgreSQL, by
 * NOTIFY about a round trip later).
 */
public final class JpaStore implements BulwarkStore {

  private final StoreCore core;
  private final JpaPermits permits;
  private final JpaLocks locks;
  private final JpaRates rates;
  private final Renewal renewal;
  private final WakeUps wakeUps;
  private final Cleanup cleanup;
  private final JvmStop jvmStop;
  private final Duration wakeUpCheckInterval;
  private final Duration reconnectInterval;

  /** Batches whose commit may have gone through unseen, given up once the database answers. */
  private final LostBatches lostBatches;

  private final AutoCloseable resources;

  /** Drops the pooled connections when the database went away: the store's own pool, else none. */
  private final Runnable dropConnections;

  /**
   * @param readCommitted whether every transaction of {@code unitOfWork} runs at READ COMMITTED
   *     already (the store's own pool); else each is set to it
   * @param dropConnections what drops the pool's connections once the database went away
   */
  private JpaStore(
      UnitOfWork unitOfWork,
      boolean readCommitted,
      Dialect dialect,
      DataSource notifications,
      Runnable dropConnections,
      JpaSettings settings,
      GrantListener listener,
      AutoCloseable resources) {
    this.dropConnections = dropConnections;
    String instance = newInstanceId();
    Transactions transactions =
        new Transactions(
            readCommitted ? unitOfWork : new ReadCommittedUnitOfWork(unitOfWork),
            new OutageGate(
                "Bulwark JPA store on " + settings.describe(),
                settings.reconnectInterval(),
                Failure::unreachable,
                this::lostConnection),
            settings.maxAttempts(),
            "Bulwark JPA store");
    TableNames names = new TableNames(settings.tablePrefix());
    this.core = new StoreCore(transactions, dialect, names, instance, listener);
    Definitions definitions = new Definitions(core);
    Inspection inspection = new Inspection(core);
    this.lostBatches = new LostBatches(settings.reconnectInterval());
    this.permits = new JpaPermits(core, definitions, inspection, lostBatches);
    this.locks = new JpaLocks(core, inspection, lostBatches);
    this.rates = new JpaRates(core, definitions);
    this.renewal = new Renewal(core);
    this.wakeUpCheckInterval = settings.wakeUpCheckInterval();
    this.reconnectInterval = settings.reconnectInterval();
    WakeUpSignal signal =
        dialect == Dialect.POSTGRESQL
                && notifications != null
                && PostgresNotifications.driverVisible()
            ? new PostgresNotifications(notifications, WakeUps.channel(instance))
            : WakeUpSignal.timer();
    this.jvmStop = JvmStop.watchedFor(dialect == Dialect.H2);
    this.wakeUps = new WakeUps(core, listener, signal, settings.wakeUpCheckInterval(), jvmStop);
    this.cleanup = new Cleanup(core, settings.cleanupInterval(), jvmStop);
    this.resources = resources;
  }

  /**
   * A transaction lost its connection: it may have committed a hand-over to this JVM's waiter whose
   * telling never came back, so the waiters stop trusting their wake-ups until a look succeeds. The
   * pool's other connections are dropped too: a connection HikariCP does not see as broken (H2's,
   * whose database closed under it) would otherwise fail every call that borrows it within the half
   * second in which the pool does not check a connection it just had back.
   */
  private void lostConnection() {
    dropConnections.run();
    WakeUps looks = wakeUps; // null while the store is being built
    if (looks != null) {
      looks.mayHaveLost();
    }
  }

  /** Opens the store's own unit as the settings say (Java SE: its own pool, or a named unit). */
  public static JpaStore open(JpaSettings settings, GrantListener listener) {
    StoreUnit unit = StoreUnit.open(settings);
    return new JpaStore(
        new ResourceLocalUnitOfWork(unit.factory()),
        // the store's own pool sets READ COMMITTED on its connections; a named unit's may not
        unit.pool() != null,
        unit.dialect(),
        unit.pool(),
        unit::dropConnections,
        settings,
        listener,
        unit);
  }

  /**
   * A store on transactions made elsewhere (a container): {@code unitOfWork} runs each operation in
   * a new transaction of an entity manager that maps the store's entities (each set to READ
   * COMMITTED by its first statement, whatever the unit's default), and {@code notifications}, when
   * not null on PostgreSQL, gives the connection that LISTENs for hand-overs (taken on the thread
   * that opens the store and on the store's wake-up thread; a container's data source must be asked
   * outside any JTA transaction). {@code resources} is closed with the store.
   */
  public static JpaStore on(
      UnitOfWork unitOfWork,
      Dialect dialect,
      DataSource notifications,
      JpaSettings settings,
      GrantListener listener,
      AutoCloseable resources) {
    return new JpaStore(
        unitOfWork, false, dialect, notifications, () -> {}, settings, listener, resources);
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

  /**
   * Yes: a batch of operations on one limit is one transaction under the limit's row lock (a rate
   * limit's: one optimistic transaction, or one locked), as many round trips as one operation.
   */
  @Override
  public boolean batches() {
    return true;
  }

  @Override
  public boolean leasesExpire() {
    return true;
  }

  @Override
  public List<Lease> renew(List<Lease> leases) {
    return renewal.renew(leases);
  }

  @Override
  public Duration wakeUpCheckInterval() {
    return wakeUpCheckInterval;
  }

  /** Hand-overs are marked in the table until told: none is lost while the looks succeed. */
  @Override
  public long wakeUpEpoch() {
    return wakeUps.epoch();
  }

  /** One read of the database's clock, in a transaction of its own behind the outage gate. */
  @Override
  public void probe() {
    core.transactions().run("probe", core::nowMicros);
  }

  @Override
  public Duration reconnectInterval() {
    return reconnectInterval;
  }

  /** This JVM's instance id, which qualifies its request ids in the tables. */
  public String instance() {
    return core.instance();
  }

  /**
   * Tells the listener now of every hand-over other JVMs made to this JVM's waiters until now,
   * without waiting for the next check.
   */
  public void deliverWakeUps() {
    wakeUps.deliver();
  }

  /** Deletes every expired request now; returns how many rows went. */
  public int cleanUpNow() {
    return cleanup.run();
  }

  /** The batches whose commit may have gone through unseen; for tests. */
  LostBatches lostBatches() {
    return lostBatches;
  }

  /** Transactions run again after a deadlock or serialization failure since the store opened. */
  public long conflictRetries() {
    return core.transactions().retries();
  }

  @Override
  public void close() {
    try {
      lostBatches.close();
      cleanup.close();
      wakeUps.close();
      jvmStop.close();
    } finally {
      try {
        resources.close();
      } catch (Exception e) {
        throw new IllegalStateException("Bulwark: closing the JPA store failed", e);
      }
    }
  }

  private static String newInstanceId() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
