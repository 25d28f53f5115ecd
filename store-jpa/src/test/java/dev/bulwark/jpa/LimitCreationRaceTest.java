package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.spi.PermitSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several JVMs (stores with pools of their own) meeting a new limit at once, round after round:
 * they create one row between them, every call is answered, and nothing is logged at WARNING or
 * above (the JPA provider logs a failed statement, such as a duplicate key, as an error). On
 * PostgreSQL and MariaDB; H2 has no insert-if-absent that a concurrent insert does not fail, so
 * there the JVM that loses the race still logs the duplicate key (and runs its step again).
 */
class LimitCreationRaceTest {

  private static final int STORES = 4;
  private static final int LIMITS = 10;
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final List<LogRecord> logged = new ArrayList<>();
  private final Handler recorder =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
            synchronized (logged) {
              logged.add(record);
            }
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @ParameterizedTest
  @EnumSource(names = {"POSTGRESQL", "MARIADB"})
  void storesCreatingOneLimitAtOnceMakeOneRowAndLogNoError(TestDatabase database) throws Exception {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    List<JpaStore> stores = new ArrayList<>();
    ExecutorService callers = Executors.newFixedThreadPool(STORES);
    Logger root = Logger.getLogger("");
    try {
      for (int i = 0; i < STORES; i++) {
        stores.add(fixture.open(fixture.config(), (r, t) -> {}));
      }
      root.addHandler(recorder);
      for (int round = 0; round < LIMITS; round++) {
        PermitSpec spec = new PermitSpec("created-at-once-" + round, STORES, 60_000);
        CyclicBarrier together = new CyclicBarrier(STORES);
        List<Future<Boolean>> calls = new ArrayList<>();
        for (int i = 0; i < STORES; i++) {
          JpaStore store = stores.get(i);
          long requestId = i + 1;
          calls.add(
              callers.submit(
                  () -> {
                    together.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                    return store.permits().acquire(spec, requestId, false).isGranted();
                  }));
        }
        for (Future<Boolean> call : calls) {
          assertThat(call.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("granted").isTrue();
        }
      }
    } finally {
      root.removeHandler(recorder);
      callers.shutdownNow();
      stores.forEach(JpaStore::close);
    }
    try {
      assertThat(database.rows(fixture.prefix(), "limit")).as("limit rows").isEqualTo(LIMITS);
      SimpleFormatter format = new SimpleFormatter();
      synchronized (logged) {
        assertThat(logged.stream().map(r -> r.getLoggerName() + ": " + format.formatMessage(r)))
            .as("logged at WARNING or above while %d stores created %d limits", STORES, LIMITS)
            .noneSatisfy(line -> assertThat(line.toLowerCase(Locale.ROOT)).contains("duplicate"))
            .isEmpty();
      }
    } finally {
      fixture.close();
    }
  }
}
