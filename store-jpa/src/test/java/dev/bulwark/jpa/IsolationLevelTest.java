package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bulwark.jpa.setup.DataSourceUnit;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The store on an application's unit whose connections default to a stricter isolation level than
 * READ COMMITTED (PostgreSQL, MariaDB and H2 at REPEATABLE READ and SERIALIZABLE): two stores (two
 * JVMs) and eight threads on a bulkhead of one never have two holders at once, and every operation
 * answers. On PostgreSQL at REPEATABLE READ or SERIALIZABLE the snapshot is taken when the
 * statement that locks the limit's row starts, before it waits for the lock, so a step that ran at
 * that level missed the holder the step before it had just committed; H2 at SERIALIZABLE missed it
 * too. MariaDB's locking reads see the newest rows at any level: there the cases show that the
 * store works at each. The same holds for batches of operations, each one transaction.
 */
class IsolationLevelTest {

  private static final int THREADS = 8;
  private static final int ROUNDS = 40;

  /** Each database at each level stricter than READ COMMITTED, as JDBC names the level. */
  static Stream<Arguments> databasesAndLevels() {
    return Stream.of(TestDatabase.values())
        .flatMap(
            database ->
                Stream.of("REPEATABLE_READ", "SERIALIZABLE")
                    .map(level -> Arguments.of(database, level)));
  }

  @ParameterizedTest(name = "{0}, default isolation {1}")
  @MethodSource("databasesAndLevels")
  void aBulkheadOfOneHasOneHolderAtATime(TestDatabase database, String level) throws Exception {
    run(
        database,
        level,
        (store, spec, ids, holding) -> {
          long id = ids.incrementAndGet();
          if (store.permits().acquire(spec, id, false) == Grant.GRANTED) {
            holding.run(
                // the held call's body: a round trip to the store, which still knows it held
                () -> assertThat(store.permits().poll(spec, id)).isEqualTo(Grant.GRANTED));
            store.permits().release(spec, id);
          }
        });
  }

  /**
   * The same with operations in batches: two acquires per batch, of which at most one is granted,
   * and the holder's release sent together with another caller's acquire.
   */
  @ParameterizedTest(name = "{0}, default isolation {1}")
  @MethodSource("databasesAndLevels")
  void batchesOnABulkheadOfOneGrantOneHolderAtATime(TestDatabase database, String level)
      throws Exception {
    run(
        database,
        level,
        (store, spec, ids, holding) -> {
          long first = ids.incrementAndGet();
          long second = ids.incrementAndGet();
          List<Grant> answers =
              store
                  .permits()
                  .apply(
                      spec,
                      List.of(Operation.acquire(first, false), Operation.acquire(second, false)));
          assertThat(answers.stream().filter(Grant::isGranted).count())
              .as("grants in one batch on a bulkhead of one")
              .isLessThanOrEqualTo(1);
          long held = answers.get(0).isGranted() ? first : second;
          if (answers.get(0).isGranted() || answers.get(1).isGranted()) {
            holding.run(
                () ->
                    assertThat(store.permits().apply(spec, List.of(Operation.poll("", held))))
                        .containsExactly(Grant.GRANTED));
            long third = ids.incrementAndGet();
            List<Grant> after =
                store
                    .permits()
                    .apply(
                        spec,
                        List.of(Operation.release("", held), Operation.acquire(third, false)));
            assertThat(after.get(0)).as("the holder's release").isEqualTo(Grant.GRANTED);
            if (after.get(1).isGranted()) {
              holding.run(
                  () -> assertThat(store.permits().poll(spec, third)).isEqualTo(Grant.GRANTED));
              assertThat(store.permits().release(spec, third)).isTrue();
            }
          }
        });
  }

  /**
   * One round of a thread: its calls on the bulkhead, each holder's time inside by {@code holding}.
   */
  @FunctionalInterface
  private interface Round {
    void run(JpaStore store, PermitSpec spec, AtomicLong ids, Holding holding);
  }

  /** Counts the holder inside while {@code body} runs. */
  @FunctionalInterface
  private interface Holding {
    void run(Runnable body);
  }

  private void run(TestDatabase database, String level, Round round) throws Exception {
    String prefix = JpaStoreFixture.newPrefix();
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(database.url());
    pool.setUsername(database.user());
    pool.setPassword(database.password());
    pool.setMaximumPoolSize(THREADS + 2);
    // the application's choice for its own transactions, which the store's must not inherit
    pool.setTransactionIsolation("TRANSACTION_" + level);
    Map<String, String> config =
        Map.of(
            "bulwark.jpa.datasource",
            "application",
            "bulwark.jpa.table-prefix",
            prefix,
            "bulwark.jpa.schema-generation",
            "create",
            "bulwark.jpa.provider",
            Provider.HIBERNATE.className);
    JpaSettings settings = JpaSettings.from(key -> Optional.ofNullable(config.get(key)));
    PermitSpec spec = new PermitSpec("isolation", 1, 60_000);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    AtomicLong grants = new AtomicLong();
    AtomicLong requestIds = new AtomicLong();
    Holding holding =
        body -> {
          grants.incrementAndGet();
          mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
          try {
            body.run();
          } finally {
            inside.decrementAndGet();
          }
        };
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try (HikariDataSource dataSource = new HikariDataSource(pool);
        StoreUnit unit = DataSourceUnit.open(dataSource, "application", settings);
        JpaStore first = onUnit(unit, settings);
        JpaStore second = onUnit(unit, settings)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        JpaStore store = t % 2 == 0 ? first : second;
        done.add(
            threads.submit(
                () -> {
                  for (int r = 0; r < ROUNDS; r++) {
                    round.run(store, spec, requestIds, holding);
                  }
                  return null;
                }));
      }
      for (Future<?> thread : done) {
        // an operation that failed (a conflict retried to the bound) fails the test here
        thread.get(2, TimeUnit.MINUTES);
      }
    } finally {
      threads.shutdownNow();
      database.dropTables(prefix);
    }
    assertThat(grants.get()).isPositive();
    assertThat(mostInside.get()).as("holders of a bulkhead of 1 at once").isEqualTo(1);
  }

  private static JpaStore onUnit(StoreUnit unit, JpaSettings settings) {
    return JpaStore.on(
        new ResourceLocalUnitOfWork(unit.factory()),
        unit.dialect(),
        null,
        settings,
        (request, token) -> {},
        () -> {});
  }
}
