package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Holder;
import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A batch whose write meets a conflict runs again as a whole, and the second run applies it once:
 * the answers are those of the operations sent one at a time, the queue holds each request once,
 * the arrival counter moved once per queued request, and the renewal that caused the conflict is
 * kept. The conflict is forced as in {@link RenewalRacingStepTest}: a third session locks a queued
 * request's row, that request's renewal waits for it, the batch (whose release hands the permit
 * over to that request) reads and waits to write the row; the third session lets go, the renewal
 * commits first, and the batch's hand-over, conditional on the row as read, changes nothing.
 */
class BatchConflictRetryTest {

  private static final long RENEWED_MILLIS = 600_000;

  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void aBatchRunAgainAfterAConflictIsAppliedOnce(TestDatabase database) throws Exception {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    PermitSpec spec = new PermitSpec("batch-conflict", 1, 60_000);
    Lease queuedLease = new Lease(Lease.Kind.PERMIT, spec.name(), "", 1, RENEWED_MILLIS);
    List<Operation> batch =
        List.of(
            Operation.release("", 10), // hands the permit over to the other JVM's request 1
            Operation.acquire(11, true),
            Operation.acquire(12, false),
            Operation.poll("", 11),
            Operation.acquire(13, true),
            Operation.cancel("", 13));
    try (JpaStore waiter = fixture.open(fixture.config(), (request, token) -> {});
        JpaStore holder = fixture.open(fixture.config(), (request, token) -> {});
        Connection third = database.connect()) {
      assertThat(holder.permits().acquire(spec, 10, false)).isEqualTo(Grant.GRANTED);
      assertThat(waiter.permits().acquire(spec, 1, true)).isEqualTo(Grant.QUEUED);
      String limitId = RowIds.limit(StoreCore.PERMITS, spec.name());
      String claimId = RowIds.claim(limitId, RowIds.key(""), waiter.instance(), 1);
      String claims = fixture.prefix() + "claim";
      long seqBefore = nextSeq(database, fixture.prefix(), limitId);
      long retriesBefore = holder.conflictRetries();

      third.setAutoCommit(false);
      try (PreparedStatement lock =
          third.prepareStatement("SELECT id FROM " + claims + " WHERE id = ? FOR UPDATE")) {
        lock.setString(1, claimId);
        lock.executeQuery().close();
      }
      long beforeRenewal = database.nowMicros();
      CompletableFuture<List<Lease>> renewal =
          CompletableFuture.supplyAsync(() -> waiter.renew(List.of(queuedLease)));
      RenewalRacingStepTest.awaitWaiting(database, claims, 1);
      CompletableFuture<List<Grant>> answers =
          CompletableFuture.supplyAsync(() -> holder.permits().apply(spec, batch));
      RenewalRacingStepTest.awaitWaiting(database, claims, 2);
      third.commit();

      assertThat(renewal.get(30, TimeUnit.SECONDS)).as("leases the renewal lost").isEmpty();
      assertThat(answers.get(30, TimeUnit.SECONDS))
          .as("answers of the batch run again")
          .containsExactly(
              Grant.GRANTED,
              Grant.QUEUED,
              Grant.REJECTED,
              Grant.QUEUED,
              Grant.QUEUED,
              Grant.REJECTED);
      assertThat(holder.conflictRetries() - retriesBefore)
          .as("runs of the batch again after a conflict")
          .isPositive();
      assertThat(nextSeq(database, fixture.prefix(), limitId) - seqBefore)
          .as("arrival numbers taken: requests 11 and 13 queued, once each")
          .isEqualTo(2);
      BulkheadSnapshot view = holder.permits().inspect(spec);
      assertThat(view.holders().stream().map(Holder::request)).containsExactly(1L);
      assertThat(view.queued()).as("request 11, once").isEqualTo(1);
      assertThat(waiter.permits().poll(spec, 1)).isEqualTo(Grant.GRANTED);
      assertThat(RenewalRacingStepTest.expiresAt(database, claims, claimId))
          .as("the granted request's lease end, as renewed")
          .isGreaterThanOrEqualTo(beforeRenewal + RENEWED_MILLIS * 1000);
      assertThat(holder.permits().poll(spec, 11)).isEqualTo(Grant.QUEUED);
    } finally {
      fixture.close();
    }
  }

  private static long nextSeq(TestDatabase database, String prefix, String limitId)
      throws SQLException {
    try (Connection connection = database.connect();
        PreparedStatement query =
            connection.prepareStatement("SELECT next_seq FROM " + prefix + "limit WHERE id = ?")) {
      query.setString(1, limitId);
      try (ResultSet row = query.executeQuery()) {
        assertThat(row.next()).isTrue();
        return row.getLong(1);
      }
    }
  }
}
