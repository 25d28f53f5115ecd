package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Many distinct lock keys leave no rows behind: released ones at once, abandoned ones (a JVM that
 * died holding them) once their lease and one cleanup interval have passed; and the fencing
 * counter, which lives on the limit's row, keeps growing across the cleanup. The number of keys is
 * {@code -Dbulwark-test.cleanup-keys} (default 10,000), on H2.
 */
class CleanupTest {

  private static final int KEYS = Integer.getInteger("bulwark-test.cleanup-keys", 10_000);
  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final Duration CLEANUP_INTERVAL = Duration.ofMillis(300);

  private final JpaStoreFixture fixture = new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);

  @AfterEach
  void dropTables() {
    fixture.close();
  }

  @Test
  void manyKeysTakenAndReleasedOrAbandonedLeaveNoRowsAndTokensKeepGrowing() throws Exception {
    Map<String, String> config = fixture.config();
    config.put("cleanup-interval", CLEANUP_INTERVAL.toMillis() + "ms");
    LockSpec spec = new LockSpec("many-keys", LEASE.toMillis());
    long lastToken = 0;
    try (JpaStore store = fixture.open(config, (r, t) -> {})) {
      for (int i = 0; i < KEYS; i++) {
        Grant grant = store.locks().acquire(spec, "key-" + i, LockMode.WRITE, i, false);
        assertThat(grant.fencingToken()).isGreaterThan(lastToken);
        lastToken = grant.fencingToken();
        if (i % 2 == 0) {
          assertThat(store.locks().release(spec, "key-" + i, i)).isTrue();
        }
      }
      // the cleanup already took abandoned keys whose lease ran out meanwhile, not the latest
      assertThat(rows("claim")).as("abandoned keys still leased").isPositive();

      long deadline = System.nanoTime() + LEASE.plus(CLEANUP_INTERVAL).toNanos();
      Thread.sleep(LEASE.plus(CLEANUP_INTERVAL).toMillis());
      awaitNoClaims(deadline + Duration.ofSeconds(10).toNanos());

      assertThat(rows("claim")).isZero();
      assertThat(rows("limit")).as("the lock name's row, with its counter").isEqualTo(1);
      Grant again = store.locks().acquire(spec, "key-1", LockMode.WRITE, KEYS, false);
      assertThat(again.fencingToken()).isGreaterThan(lastToken);
    }
  }

  /** The cleanup runs on its own thread; a slow machine may need one more round of it. */
  private void awaitNoClaims(long deadlineNanos) throws InterruptedException {
    while (rows("claim") > 0 && System.nanoTime() - deadlineNanos < 0) {
      Thread.sleep(CLEANUP_INTERVAL.toMillis() / 3);
    }
  }

  private long rows(String table) {
    return fixture.database().rows(fixture.prefix(), table);
  }
}
