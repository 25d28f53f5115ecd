package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On PostgreSQL a hand-over reaches a waiter of another JVM through NOTIFY on that JVM's channel:
 * with a check interval of a minute, the waiter is still told within the test's bound, which only
 * the notification can do; and it is told with the fencing token of its grant.
 */
class PostgresNotifyTest {

  private static final Duration BOUND = Duration.ofSeconds(10);

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);

  @AfterEach
  void dropTables() {
    fixture.close();
  }

  @Test
  void aHandOverToAnotherJvmArrivesByNotifyLongBeforeTheCheckInterval() throws Exception {
    Map<String, String> config = fixture.config();
    config.put("wake-up-check-interval", "60s");
    List<long[]> told = new ArrayList<>();
    LockSpec spec = new LockSpec("notified", 60_000);
    try (JpaStore releaser = fixture.open(config, (r, t) -> {});
        JpaStore waiter =
            fixture.open(
                config,
                (r, t) -> {
                  synchronized (told) {
                    told.add(new long[] {r, t});
                    told.notifyAll();
                  }
                })) {
      Grant held = releaser.locks().acquire(spec, "k", LockMode.WRITE, 1, false);
      assertThat(waiter.locks().acquire(spec, "k", LockMode.WRITE, 7, true))
          .isEqualTo(Grant.QUEUED);
      assertThat(releaser.locks().release(spec, "k", 1)).isTrue();

      long deadline = System.nanoTime() + BOUND.toNanos();
      synchronized (told) {
        while (told.isEmpty() && System.nanoTime() - deadline < 0) {
          told.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        assertThat(told).as("told within %s, with a check interval of 60 s", BOUND).hasSize(1);
        assertThat(told.get(0)[0]).isEqualTo(7);
        assertThat(told.get(0)[1]).isGreaterThan(held.fencingToken());
      }
    }
  }
}
