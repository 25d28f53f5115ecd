package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bulwark.jpa.setup.DataSourceUnit;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.Grant;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The store on an application's unit whose connections default to a stricter isolation level than
 * READ COMMITTED (PostgreSQL): two stores (two JVMs) and eight threads on a bulkhead of one never
 * have two holders at once, and every operation answers. At REPEATABLE READ or SERIALIZABLE the
 * snapshot is taken when the statement that locks the limit's row starts, before it waits for the
 * lock, so a step that ran at that level missed the holder the step before it had just committed.
 */
class IsolationLevelTest {

  private static final int THREADS = 8;
  private static final int ROUNDS = 40;

  @ParameterizedTest(name = "default isolation {0}")
  @ValueSource(strings = {"REPEATABLE READ", "SERIALIZABLE"})
  void aBulkheadOfOneHasOneHolderAtATime(String level) throws Exception {
    TestDatabase database = TestDatabase.POSTGRESQL;
    String prefix = JpaStoreFixture.newPrefix();
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(database.url());
    pool.setUsername(database.user());
    pool.setPassword(database.password());
    pool.setMaximumPoolSize(THREADS + 2);
    // the application's choice for its own transactions, which the store's must not inherit
    pool.setConnectionInitSql(
        "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL " + level);
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
                  for (int round = 0; round < ROUNDS; round++) {
                    long id = requestIds.incrementAndGet();
                    if (store.permits().acquire(spec, id, false) == Grant.GRANTED) {
                      grants.incrementAndGet();
                      mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                      // the held call's body: a round trip to the store, which still knows it held
                      assertThat(store.permits().poll(spec, id)).isEqualTo(Grant.GRANTED);
                      inside.decrementAndGet();
                      store.permits().release(spec, id);
                    }
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
