package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PermitSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A renewal that commits between a step's read and its write is kept: the step's write finds a row
 * that is no longer the one it read, and the step runs again on what the renewal wrote. Each
 * interleaving is forced: a third session locks a claim's row, so the renewal of that claim waits;
 * a step of another JVM reads the row (a plain read is not held up) and waits to write it; the
 * third session lets go, and the renewal, first in line, commits before the step's write.
 */
class RenewalRacingStepTest {

  private static final long LEASE_MILLIS = 1_500;

  /**
   * The holder's renewal began while its lease ran and commits after the lease ended on the
   * database's clock; another JVM's acquire read the holder as expired meanwhile. The bulkhead of
   * one stays with the renewed holder, and its next renewal finds it. (PostgreSQL only: MariaDB
   * evaluates the renewal's condition again once it has the row, after the lease ended, and so
   * rightly reports the lease lost.)
   */
  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL"})
  void aRenewalCommittedBeforeAStepsDeleteKeepsThePermit(TestDatabase database) throws Exception {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    PermitSpec spec = new PermitSpec("renewal-race", 1, LEASE_MILLIS);
    Lease holderLease = new Lease(Lease.Kind.PERMIT, spec.name(), "", 1, 60_000);
    try (JpaStore holder = fixture.open(fixture.config(), (request, token) -> {});
        JpaStore other = fixture.open(fixture.config(), (request, token) -> {});
        Connection third = database.connect()) {
      assertThat(holder.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      String claimId =
          RowIds.claim(
              RowIds.limit(StoreCore.PERMITS, spec.name()), RowIds.key(""), holder.instance(), 1);
      String claims = fixture.prefix() + "claim";

      third.setAutoCommit(false);
      try (PreparedStatement lock =
          third.prepareStatement("SELECT id FROM " + claims + " WHERE id = ? FOR UPDATE")) {
        lock.setString(1, claimId);
        lock.executeQuery().close();
      }
      CompletableFuture<List<Lease>> renewal =
          CompletableFuture.supplyAsync(() -> holder.renew(List.of(holderLease)));
      awaitWaiting(database, claims, 1);
      long expiresAt = expiresAt(database, claims, claimId);
      await().atMost(Duration.ofSeconds(30)).until(() -> database.nowMicros() > expiresAt);
      CompletableFuture<Grant> acquire =
          CompletableFuture.supplyAsync(() -> other.permits().acquire(spec, 2, false));
      awaitWaiting(database, claims, 2);
      third.commit();

      assertThat(renewal.get(30, TimeUnit.SECONDS)).as("leases the renewal lost").isEmpty();
      assertThat(acquire.get(30, TimeUnit.SECONDS))
          .as("another JVM's acquire while the renewed holder holds")
          .isEqualTo(Grant.REJECTED);
      assertThat(holder.renew(List.of(holderLease))).as("leases the next renewal lost").isEmpty();
    } finally {
      fixture.close();
    }
  }

  /**
   * A queued request's renewal to a longer lease commits between a release's read and the hand-over
   * it writes to that request: the request is granted and keeps the renewed lease.
   */
  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void aHandOverKeepsARenewalCommittedAfterItsRead(TestDatabase database) throws Exception {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    PermitSpec spec = new PermitSpec("renewal-race-hand-over", 1, 60_000);
    long renewedMillis = 600_000;
    Lease queuedLease = new Lease(Lease.Kind.PERMIT, spec.name(), "", 1, renewedMillis);
    try (JpaStore waiter = fixture.open(fixture.config(), (request, token) -> {});
        JpaStore holder = fixture.open(fixture.config(), (request, token) -> {});
        Connection third = database.connect()) {
      assertThat(holder.permits().acquire(spec, 10, false)).isEqualTo(Grant.GRANTED);
      assertThat(waiter.permits().acquire(spec, 1, true)).isEqualTo(Grant.QUEUED);
      String claimId =
          RowIds.claim(
              RowIds.limit(StoreCore.PERMITS, spec.name()), RowIds.key(""), waiter.instance(), 1);
      String claims = fixture.prefix() + "claim";

      third.setAutoCommit(false);
      try (PreparedStatement lock =
          third.prepareStatement("SELECT id FROM " + claims + " WHERE id = ? FOR UPDATE")) {
        lock.setString(1, claimId);
        lock.executeQuery().close();
      }
      long beforeRenewal = database.nowMicros();
      CompletableFuture<List<Lease>> renewal =
          CompletableFuture.supplyAsync(() -> waiter.renew(List.of(queuedLease)));
      awaitWaiting(database, claims, 1);
      CompletableFuture<Boolean> release =
          CompletableFuture.supplyAsync(() -> holder.permits().release(spec, 10));
      awaitWaiting(database, claims, 2);
      third.commit();

      assertThat(renewal.get(30, TimeUnit.SECONDS)).as("leases the renewal lost").isEmpty();
      assertThat(release.get(30, TimeUnit.SECONDS)).as("the release").isTrue();
      assertThat(waiter.permits().poll(spec, 1)).isEqualTo(Grant.GRANTED);
      assertThat(expiresAt(database, claims, claimId))
          .as("the granted request's lease end")
          .isGreaterThanOrEqualTo(beforeRenewal + renewedMillis * 1000);
    } finally {
      fixture.close();
    }
  }

  /**
   * A renewal that commits between the wake-ups' read of a hand-over to this JVM and their clearing
   * of its mark is kept: clearing the mark writes nothing else. (MariaDB: on PostgreSQL the
   * release's NOTIFY sets the store's own wake-up thread looking at once, and the order of the
   * writes on the row could not be forced.)
   */
  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"MARIADB"})
  void findingAHandOverKeepsARenewalCommittedAfterItsRead(TestDatabase database) throws Exception {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    PermitSpec spec = new PermitSpec("renewal-race-wake-up", 1, 60_000);
    long renewedMillis = 600_000;
    Lease grantedLease = new Lease(Lease.Kind.PERMIT, spec.name(), "", 1, renewedMillis);
    Map<String, String> config = fixture.config();
    // the test finds the hand-over itself, when the row is locked
    config.put("wake-up-check-interval", "1h");
    List<Long> told = new CopyOnWriteArrayList<>();
    try (JpaStore waiter = fixture.open(config, (request, token) -> told.add(request));
        JpaStore holder = fixture.open(config, (request, token) -> {});
        Connection third = database.connect()) {
      assertThat(holder.permits().acquire(spec, 10, false)).isEqualTo(Grant.GRANTED);
      assertThat(waiter.permits().acquire(spec, 1, true)).isEqualTo(Grant.QUEUED);
      assertThat(holder.permits().release(spec, 10)).isTrue();
      String claimId =
          RowIds.claim(
              RowIds.limit(StoreCore.PERMITS, spec.name()), RowIds.key(""), waiter.instance(), 1);
      String claims = fixture.prefix() + "claim";

      third.setAutoCommit(false);
      try (PreparedStatement lock =
          third.prepareStatement("SELECT id FROM " + claims + " WHERE id = ? FOR UPDATE")) {
        lock.setString(1, claimId);
        lock.executeQuery().close();
      }
      long beforeRenewal = database.nowMicros();
      CompletableFuture<List<Lease>> renewal =
          CompletableFuture.supplyAsync(() -> waiter.renew(List.of(grantedLease)));
      awaitWaiting(database, claims, 1);
      CompletableFuture<Void> wakeUps = CompletableFuture.runAsync(waiter::deliverWakeUps);
      awaitWaiting(database, claims, 2);
      third.commit();

      assertThat(renewal.get(30, TimeUnit.SECONDS)).as("leases the renewal lost").isEmpty();
      wakeUps.get(30, TimeUnit.SECONDS);
      assertThat(told).containsExactly(1L);
      assertThat(expiresAt(database, claims, claimId))
          .as("the granted request's lease end")
          .isGreaterThanOrEqualTo(beforeRenewal + renewedMillis * 1000);
    } finally {
      fixture.close();
    }
  }

  /** Waits until {@code count} statements on {@code table} wait for a row lock. */
  static void awaitWaiting(TestDatabase database, String table, int count) {
    String sql =
        switch (database) {
          case POSTGRESQL ->
              "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                  + " AND query LIKE ?";
          case MARIADB ->
              "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'"
                  + " AND trx_query LIKE ?";
          case H2 -> throw new IllegalArgumentException("not on H2");
        };
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              try (Connection connection = database.connect();
                  PreparedStatement query = connection.prepareStatement(sql)) {
                query.setString(1, "%" + table + "%");
                try (ResultSet rows = query.executeQuery()) {
                  rows.next();
                  return rows.getInt(1) >= count;
                }
              }
            });
  }

  static long expiresAt(TestDatabase database, String table, String id) throws SQLException {
    try (Connection connection = database.connect();
        PreparedStatement query =
            connection.prepareStatement("SELECT expires_at FROM " + table + " WHERE id = ?")) {
      query.setString(1, id);
      try (ResultSet row = query.executeQuery()) {
        assertThat(row.next()).isTrue();
        return row.getLong(1);
      }
    }
  }
}
