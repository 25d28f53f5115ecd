package dev.bulwark.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every JPA profile of the sample must show: the application's permits are rows of the store's
 * tables, committed at once; an application transaction that rolls back neither undoes a grant nor
 * a release; and a definition that another instance recorded differently before the start is
 * reported once the application runs. Each subclass runs these on one database.
 */
abstract class JpaStoreChecks {

  private static final int LIMIT = 2;

  @TestHTTPResource("/")
  URI root;

  @Inject SlowDownstream downstream;
  @Inject TransactionalCaller caller;
  @Inject BulkheadEvents events;
  @Inject TransactionManager transactions;

  /** The profile's database, read over the test's own connections. */
  abstract StoreDatabase database();

  /** The profile's name, which names its log file. */
  abstract String profile();

  @Test
  void aDefinitionAnotherInstanceRecordedDifferentlyIsReportedWhenTheApplicationStarts() {
    // recorded at start, before any call of the bulkhead: the application has started by now
    assertThat(ConflictingDefinition.reported(profile()))
        .as("log lines in %s reporting the conflict", ConflictingDefinition.log(profile()))
        .hasSize(1)
        .allSatisfy(
            line ->
                assertThat(line)
                    .contains(ConflictingDefinition.DEFINITION)
                    .contains(ConflictingDefinition.INSTANCE));
    assertThat(database().definedBy("P", ConflictingDefinition.LIMIT))
        .as("the newest record, this instance's, replaced the other's")
        .isNotNull()
        .isNotEqualTo(ConflictingDefinition.INSTANCE);
  }

  @AfterEach
  void releaseHeldCalls() {
    downstream.release(LegacyService.DOWNSTREAM);
  }

  @Test
  void theApplicationsPermitsAreRowsInTheDatabase() throws Exception {
    downstream.hold(LegacyService.DOWNSTREAM);
    try (Http http = new Http(root, LIMIT + 1)) {
      List<Future<HttpResponse<String>>> holders = new ArrayList<>();
      for (int i = 0; i < LIMIT; i++) {
        holders.add(http.get("/legacy/report?customer=holder" + i));
      }
      Http.awaitTrue(
          "both calls are inside", () -> downstream.heldCalls(LegacyService.DOWNSTREAM) == LIMIT);

      assertThat(database().heldPermits("legacy-api")).as("held claim rows").isEqualTo(LIMIT);
      assertThat(http.get("/legacy/report?customer=third").get().statusCode()).isEqualTo(503);

      downstream.release(LegacyService.DOWNSTREAM);
      for (Future<HttpResponse<String>> holder : holders) {
        assertThat(holder.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
            .isEqualTo(200);
      }
    }
    awaitNoneHeld("legacy-api");
  }

  @Test
  void aCallerThatFailsAndRollsBackStillReleasesItsPermitOnce() {
    String name = TransactionalCaller.BULKHEAD;
    int granted = events.granted(name);
    int released = events.released(name);
    AtomicInteger seenInside = new AtomicInteger(-1);

    AtomicInteger callerStatus = new AtomicInteger(-1);

    assertThatThrownBy(
            () ->
                caller.failAfter(
                    () -> {
                      callerStatus.set(status());
                      seenInside.set(heldNow(name));
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the caller fails after its work");

    assertThat(callerStatus.get()).as("the caller's transaction").isEqualTo(Status.STATUS_ACTIVE);
    assertThat(seenInside.get())
        .as("the grant, committed while the caller's transaction was open")
        .isEqualTo(1);
    assertReleasedOnce(name, granted, released);
  }

  @Test
  void aCallerWhoseTransactionIsRollbackOnlyStillReleasesItsPermitOnce() {
    String name = TransactionalCaller.BULKHEAD;
    int granted = events.granted(name);
    int released = events.released(name);
    AtomicInteger seenInside = new AtomicInteger(-1);

    AtomicInteger callerStatus = new AtomicInteger(-1);

    // @Transactional rolls a rollback-only transaction back without an exception
    assertThatCode(
            () ->
                caller.rollBackOnlyAfter(
                    () -> {
                      callerStatus.set(status());
                      seenInside.set(heldNow(name));
                    }))
        .doesNotThrowAnyException();

    assertThat(callerStatus.get()).as("the caller's transaction").isEqualTo(Status.STATUS_ACTIVE);
    assertThat(seenInside.get()).isEqualTo(1);
    assertReleasedOnce(name, granted, released);
  }

  private int status() {
    try {
      return transactions.getStatus();
    } catch (SystemException e) {
      throw new IllegalStateException(e);
    }
  }

  private int heldNow(String name) {
    return database().heldPermits(name);
  }

  /**
   * Waits until no claim row of {@code name} is left: a guarded call's release is posted when it
   * returns, and its transaction commits a moment later.
   */
  private void awaitNoneHeld(String name) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (database().heldPermits(name) != 0) {
      assertThat(System.nanoTime() - deadline)
          .as("the claim rows of %s released within 10 s", name)
          .isNegative();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  private void assertReleasedOnce(String name, int grantedBefore, int releasedBefore) {
    awaitNoneHeld(name);
    // the release's event follows the store's answer, which follows the commit
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (events.released(name) == releasedBefore) {
      assertThat(System.nanoTime() - deadline).as("the release reported within 10 s").isNegative();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    assertThat(events.granted(name) - grantedBefore).as("grants").isEqualTo(1);
    assertThat(events.released(name) - releasedBefore).as("releases").isEqualTo(1);
    assertThat(events.expiredAtRelease(name)).as("releases that found no claim").isZero();
    // the one permit is free again: the next caller gets it
    AtomicInteger again = new AtomicInteger(-1);
    assertThatThrownBy(() -> caller.failAfter(() -> again.set(heldNow(name))))
        .isInstanceOf(IllegalStateException.class);
    assertThat(again.get()).isEqualTo(1);
    awaitNoneHeld(name);
  }
}
