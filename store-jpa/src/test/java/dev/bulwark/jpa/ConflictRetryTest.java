package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A deadlock the database breaks by aborting the store's transaction is run again, a bounded number
 * of times, and counted. The deadlock is real: another session locks the holder's row, the store's
 * release locks the limit's row and waits for the holder's, then the other session waits for the
 * limit's row. The other session waits longer before it looks for deadlocks, so PostgreSQL aborts
 * the store's side.
 */
class ConflictRetryTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  private final PermitSpec spec = new PermitSpec("deadlocked", 1, 60_000);

  @AfterEach
  void dropTables() {
    fixture.close();
  }

  @Test
  void aDeadlockedReleaseIsRunAgainAndCounted() throws Exception {
    try (JpaStore store = fixture.open(fixture.config(), (r, t) -> {})) {
      assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      CompletableFuture<Boolean> release = deadlock(store);
      assertThat(release.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      // the retry may meet the other session's pending lock once more before it commits
      assertThat(store.conflictRetries()).as("retries, at most max-attempts - 1").isBetween(1L, 4L);
      assertThat(store.permits().acquire(spec, 2, false)).isEqualTo(Grant.GRANTED);
    }
  }

  @Test
  void withOneAttemptTheDeadlockFailsTheCallAsAStoreException() throws Exception {
    Map<String, String> config = fixture.config();
    config.put("max-attempts", "1");
    try (JpaStore store = fixture.open(config, (r, t) -> {})) {
      assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      CompletableFuture<Boolean> release = deadlock(store);
      assertThatThrownBy(() -> release.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
          .hasCauseInstanceOf(StoreException.class)
          .cause()
          .hasMessageContaining("after 1 attempts");
      assertThat(store.conflictRetries()).isZero();
      assertThat(store.permits().release(spec, 1)).as("still held: nothing changed").isTrue();
    }
  }

  /** Starts a release of request 1 that deadlocks with another session; returns its outcome. */
  private CompletableFuture<Boolean> deadlock(JpaStore store) throws Exception {
    try (Connection other = TestDatabase.POSTGRESQL.connect();
        Statement statement = other.createStatement()) {
      other.setAutoCommit(false);
      statement.execute("SET deadlock_timeout = '30s'");
      statement.execute("SELECT id FROM " + fixture.prefix() + "claim FOR UPDATE");
      CompletableFuture<Boolean> release =
          CompletableFuture.supplyAsync(() -> store.permits().release(spec, 1));
      awaitWaitingDelete(release, fixture.prefix());
      CompletableFuture<Void> lockLimit =
          CompletableFuture.runAsync(
              () -> {
                try (Statement second = other.createStatement()) {
                  second.execute("SELECT id FROM " + fixture.prefix() + "limit FOR UPDATE");
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      // the store's side is aborted; this session gets the limit's row and ends
      lockLimit.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      other.commit();
      return release;
    }
  }

  /** Waits until a DELETE on this test's claims waits for a row lock (the store's release). */
  private static void awaitWaitingDelete(CompletableFuture<Boolean> release, String prefix)
      throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    try (Connection observer = TestDatabase.POSTGRESQL.connect();
        Statement statement = observer.createStatement()) {
      while (System.nanoTime() - deadline < 0 && !release.isDone()) {
        try (ResultSet waiting =
            statement.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND query ILIKE 'delete from "
                    + prefix
                    + "claim%'")) {
          waiting.next();
          if (waiting.getInt(1) > 0) {
            return;
          }
        }
        Thread.sleep(10);
      }
    }
    throw new AssertionError("the store's release never waited for the holder's row");
  }
}
