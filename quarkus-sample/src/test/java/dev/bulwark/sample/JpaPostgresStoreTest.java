package dev.bulwark.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Bulwark;
import dev.bulwark.LockHandle;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.jpa.container.ContainerJpaStoreProvider;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.StoreContext;
import dev.bulwark.tck.TestServices;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code jpa-postgresql} profile: Hibernate ORM on PostgreSQL. Besides the checks of every JPA
 * profile: a hand-over from another instance of the store reaches the application's waiter by
 * PostgreSQL's notification, on a connection of the application's data source, long before the
 * wake-up check interval.
 */
@QuarkusTest
@TestProfile(JpaPostgresProfile.class)
@RequiresServer(TestServices.Service.POSTGRESQL)
class JpaPostgresStoreTest extends JpaStoreChecks {

  /** Well below the check interval; a notification takes about a round trip and a transaction. */
  private static final Duration BOUND = Duration.ofSeconds(10);

  @Inject Bulwark bulwark;
  @Inject ContainerJpaStoreProvider provider;

  @Override
  StoreDatabase database() {
    return JpaPostgresProfile.database();
  }

  @Override
  String profile() {
    return JpaPostgresProfile.PROFILE;
  }

  /**
   * Two rounds: another instance holds the lock, the application's caller queues, the other
   * instance releases. Without a notification the first waiter could still be told early, by the
   * wake-up check that happens to come next; the second cannot, its release coming right after the
   * check that told the first.
   */
  @Test
  void aHandOverFromAnotherInstanceReachesTheApplicationLongBeforeTheCheckInterval()
      throws Exception {
    LockSpec spec = new LockSpec(JpaPostgresProfile.PROBE_LOCK, 60_000);
    LockHandle lock = bulwark.lock(JpaPostgresProfile.PROBE_LOCK);
    List<Duration> handOvers = new ArrayList<>();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (BulwarkStore other = provider.open(anotherInstance())) {
      for (long round = 1; round <= 2; round++) {
        assertThat(other.locks().acquire(spec, "k", LockMode.WRITE, round, false).isGranted())
            .as("the other instance takes the lock")
            .isTrue();
        // the caller's thread takes the lock, notes when, and releases it (a lock is its thread's)
        Future<Long> waiting =
            caller.submit(
                () -> {
                  try (LockPermit permit = lock.lock("k", LockMode.WRITE)) {
                    return System.nanoTime();
                  }
                });
        Http.awaitTrue(
            "the application's caller is queued",
            () -> waiting.isDone() || lock.inspect("k").queued() == 1);
        assertThat(waiting)
            .as("the application's caller, while the other instance holds")
            .isNotDone();
        long released = System.nanoTime();
        assertThat(other.locks().release(spec, "k", round)).isTrue();
        long granted =
            waiting.get(
                JpaPostgresProfile.WAKE_UP_CHECK_INTERVAL.plus(Http.PATIENCE).toMillis(),
                TimeUnit.MILLISECONDS);
        handOvers.add(Duration.ofNanos(granted - released));
      }
    } finally {
      caller.shutdownNow();
    }
    assertThat(handOvers)
        .as(
            "from the release to the waiter's grant, with a check interval of %s",
            JpaPostgresProfile.WAKE_UP_CHECK_INTERVAL)
        .hasSize(2)
        .allSatisfy(took -> assertThat(took).isLessThan(BOUND));
  }

  /** Another instance of the store on the application's unit, as another JVM would open it. */
  private static StoreContext anotherInstance() {
    return new StoreContext() {
      @Override
      public Optional<String> config(String key) {
        return ConfigProvider.getConfig().getOptionalValue(key, String.class);
      }

      @Override
      public GrantListener grantListener() {
        // it never queues
        return (requestId, fencingToken) -> {};
      }
    };
  }

  @AfterAll
  static void dropSchema() {
    JpaPostgresProfile.execute("DROP SCHEMA IF EXISTS " + JpaPostgresProfile.SCHEMA + " CASCADE");
  }
}
