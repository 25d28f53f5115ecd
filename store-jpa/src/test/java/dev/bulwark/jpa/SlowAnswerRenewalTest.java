package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.LeaseLost;
import dev.bulwark.jpa.setup.DataSourceUnit;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreContext;
import dev.bulwark.spi.StoreStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A holder whose grant reached it late keeps its permit: two engines (two JVMs) on one bulkhead of
 * one, each on an application's data source whose connections start transactions at REPEATABLE READ
 * (MariaDB's default; PostgreSQL told so by its URL). The holder's acquire is granted, but its
 * answer arrives {@link #ANSWER_DELAY} late, more than two thirds of the {@link #LEASE}: on a
 * loaded machine a commit, a reply or the thread that reads it can be held up for hundreds of
 * milliseconds, and with a lease of one second that is the same share. The other engine then asks
 * for the permit without waiting, as fast as it can, for longer than a lease.
 *
 * <p>The store started the lease when it granted it, before the answer left; an engine that counted
 * the lease from the answer's arrival renewed it first a third of a lease after that, when the
 * store had let it run out: the renewal found it lost and the prober got in beside the holder,
 * again and again until the holder's call ended. Counted from the acquire's sending, the first
 * renewal is due when the answer arrives.
 */
class SlowAnswerRenewalTest {

  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final Duration ANSWER_DELAY = Duration.ofMillis(2_100);

  /** How long the prober tries after the holder has its answer: past the lease by a second. */
  private static final Duration PROBING = Duration.ofSeconds(4);

  private static final String BULKHEAD = "slow-answer";

  @ParameterizedTest(name = "{0} at REPEATABLE READ")
  @EnumSource(
      value = TestDatabase.class,
      names = {"MARIADB", "POSTGRESQL"})
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aHolderAnsweredLateKeepsItsPermitAndAProberNeverGetsIn(TestDatabase database)
      throws Exception {
    String prefix = JpaStoreFixture.newPrefix();
    List<AutoCloseable> closing = new ArrayList<>();
    List<BulwarkEvent> holderEvents = new CopyOnWriteArrayList<>();
    try {
      SlowAnswers holderStore = new SlowAnswers();
      BulwarkEngine holder = start(database, prefix, holderStore, holderEvents::add, closing);
      BulwarkEngine prober = start(database, prefix, null, event -> {}, closing);
      BulkheadHandle held = holder.programmatic().bulkhead(BULKHEAD);
      BulkheadHandle probed = prober.programmatic().bulkhead(BULKHEAD);
      // both engines have opened the store and made the limit's row: nothing below is a first use
      probed.tryAcquire().orElseThrow().close();

      holderStore.delayNextGrant(ANSWER_DELAY);
      long asked = System.nanoTime();
      Permit permit = held.acquire();
      long answered = System.nanoTime();
      int probes = 0;
      int grantsToProber = 0;
      while (System.nanoTime() - answered < PROBING.toNanos()) {
        probes++;
        Optional<Permit> in = probed.tryAcquire();
        if (in.isPresent()) {
          grantsToProber++;
          in.get().close();
        }
      }
      permit.close();

      List<String> renewals = holderStore.renewalsSince(answered);
      String record =
          String.format(
              "answer after %d ms; %d probes, %d granted; renewals (start..end ms after the"
                  + " answer, leases lost): %s; holder's events %s",
              TimeUnit.NANOSECONDS.toMillis(answered - asked),
              probes,
              grantsToProber,
              renewals,
              holderEvents.stream().map(e -> e.getClass().getSimpleName()).toList());
      System.out.println("SlowAnswerRenewalTest on " + database + ": " + record);
      assertThat(answered - asked)
          .as("the holder's answer came late: %s", record)
          .isGreaterThanOrEqualTo(ANSWER_DELAY.toNanos());
      assertThat(probes).as("the prober kept trying: %s", record).isGreaterThan(10);
      assertThat(grantsToProber)
          .as("grants to the prober while the holder held: %s", record)
          .isZero();
      assertThat(holderEvents)
          .as("the holder's lease was never lost: %s", record)
          .noneMatch(e -> e instanceof LeaseLost || e instanceof LeaseExpiredAtRelease);
      assertThat(renewals).as("the holder's lease was renewed: %s", record).isNotEmpty();
    } finally {
      for (int i = closing.size() - 1; i >= 0; i--) {
        closing.get(i).close();
      }
      database.dropTables(prefix);
    }
  }

  /**
   * An engine on the JPA store on an application's data source at REPEATABLE READ; {@code
   * holderStore}, when given, is what the engine gets, around that store.
   */
  private static BulwarkEngine start(
      TestDatabase database,
      String prefix,
      SlowAnswers holderStore,
      BulwarkListener listener,
      List<AutoCloseable> closing)
      throws SQLException {
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(repeatableReadUrl(database));
    pool.setUsername(database.user());
    pool.setPassword(database.password());
    pool.setMaximumPoolSize(4);
    HikariDataSource dataSource = new HikariDataSource(pool);
    closing.add(dataSource);
    try (Connection connection = dataSource.getConnection()) {
      assertThat(connection.getTransactionIsolation())
          .as("the application's connections start transactions at REPEATABLE READ")
          .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
    }
    Map<String, String> jpa = new HashMap<>();
    jpa.put("bulwark.jpa.datasource", "application");
    jpa.put("bulwark.jpa.table-prefix", prefix);
    jpa.put("bulwark.jpa.schema-generation", "create");
    jpa.put("bulwark.jpa.provider", Provider.HIBERNATE.className);
    JpaSettings settings = JpaSettings.from(key -> Optional.ofNullable(jpa.get(key)));
    BulwarkStoreProvider provider =
        new BulwarkStoreProvider() {
          @Override
          public String id() {
            return "jpa-application";
          }

          @Override
          public BulwarkStore open(StoreContext context) {
            StoreUnit unit = DataSourceUnit.open(dataSource, "application", settings);
            JpaStore store =
                JpaStore.on(
                    new ResourceLocalUnitOfWork(unit.factory()),
                    unit.dialect(),
                    null,
                    settings,
                    context.grantListener(),
                    unit);
            if (holderStore == null) {
              return store;
            }
            holderStore.around(store);
            return holderStore;
          }
        };
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", "jpa-application");
    config.put("bulwark.bulkhead." + BULKHEAD + ".value", "1");
    config.put("bulwark.bulkhead." + BULKHEAD + ".waiting-time", "0");
    config.put("bulwark.bulkhead." + BULKHEAD + ".lease", LEASE.toMillis() + "ms");
    BulwarkEngine engine =
        BulwarkEngine.builder(ConfigLookup.of(config))
            .stores(List.of(provider))
            .listeners(List.of(listener))
            .start();
    closing.add(engine);
    return engine;
  }

  /** MariaDB starts transactions at REPEATABLE READ by default; PostgreSQL is told by the URL. */
  private static String repeatableReadUrl(TestDatabase database) {
    String url = database.url();
    if (database != TestDatabase.POSTGRESQL) {
      return url;
    }
    return url
        + (url.contains("?") ? "&" : "?")
        + "options=-c%20default_transaction_isolation=repeatable%5C%20read";
  }

  /**
   * The holder's JPA store, answering one grant late when told to, and recording its renewals: the
   * store applied the grant at once, only its answer is held up, as by a slow commit or reply.
   */
  private static final class SlowAnswers implements BulwarkStore, PermitStore {

    private volatile BulwarkStore store;
    private volatile long nextGrantDelayNanos;
    private final AtomicBoolean delaying = new AtomicBoolean();

    /** Start and end ({@link System#nanoTime()}) and leases lost of every renewal. */
    private final List<long[]> renewals = new CopyOnWriteArrayList<>();

    void around(BulwarkStore jpa) {
      this.store = jpa;
    }

    void delayNextGrant(Duration delay) {
      nextGrantDelayNanos = delay.toNanos();
      delaying.set(true);
    }

    List<String> renewalsSince(long from) {
      List<String> since = new ArrayList<>();
      for (long[] renewal : renewals) {
        if (renewal[1] >= from) {
          since.add(
              TimeUnit.NANOSECONDS.toMillis(renewal[0] - from)
                  + ".."
                  + TimeUnit.NANOSECONDS.toMillis(renewal[1] - from)
                  + (renewal[2] > 0 ? " lost " + renewal[2] : ""));
        }
      }
      return since;
    }

    /** Holds up an answer that grants an acquire, once after {@link #delayNextGrant}. */
    private void answerLate(List<Operation> operations, List<Grant> answers) {
      for (int i = 0; i < operations.size(); i++) {
        if (operations.get(i).kind() == Operation.Kind.ACQUIRE
            && answers.get(i).isGranted()
            && delaying.compareAndSet(true, false)) {
          long until = System.nanoTime() + nextGrantDelayNanos;
          while (System.nanoTime() - until < 0) {
            LockSupport.parkNanos(until - System.nanoTime());
          }
          return;
        }
      }
    }

    @Override
    public List<Grant> apply(PermitSpec spec, List<Operation> operations) {
      List<Grant> answers = store.permits().apply(spec, operations);
      answerLate(operations, answers);
      return answers;
    }

    @Override
    public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
      return apply(spec, List.of(Operation.acquire(requestId, mayQueue))).get(0);
    }

    @Override
    public Grant poll(PermitSpec spec, long requestId) {
      return store.permits().poll(spec, requestId);
    }

    @Override
    public Grant cancel(PermitSpec spec, long requestId) {
      return store.permits().cancel(spec, requestId);
    }

    @Override
    public boolean release(PermitSpec spec, long requestId) {
      return store.permits().release(spec, requestId);
    }

    @Override
    public Optional<String> define(PermitSpec spec) {
      return store.permits().define(spec);
    }

    @Override
    public BulkheadSnapshot inspect(PermitSpec spec) {
      return store.permits().inspect(spec);
    }

    @Override
    public PermitStore permits() {
      return this;
    }

    @Override
    public RateStore rates() {
      return store.rates();
    }

    @Override
    public LockStore locks() {
      return store.locks();
    }

    @Override
    public boolean leasesExpire() {
      return store.leasesExpire();
    }

    @Override
    public List<Lease> renew(List<Lease> leases) {
      long start = System.nanoTime();
      List<Lease> lost = store.renew(leases);
      renewals.add(new long[] {start, System.nanoTime(), lost.size()});
      return lost;
    }

    @Override
    public boolean batches() {
      return store.batches();
    }

    @Override
    public int batchesInFlight() {
      return store.batchesInFlight();
    }

    @Override
    public Duration wakeUpCheckInterval() {
      return store.wakeUpCheckInterval();
    }

    @Override
    public long wakeUpEpoch() {
      return store.wakeUpEpoch();
    }

    @Override
    public StoreStatus status() {
      return store.status();
    }

    @Override
    public void probe() {
      store.probe();
    }

    @Override
    public Duration reconnectInterval() {
      return store.reconnectInterval();
    }

    @Override
    public void close() {
      store.close();
    }
  }
}
