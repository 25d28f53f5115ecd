package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import dev.bulwark.tck.OutageRelay;
import dev.bulwark.tck.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A batch whose transaction committed on PostgreSQL but whose answer was lost with its connection:
 * its callers were told the store failed, so its grants are held by nobody. The store gives up the
 * batch's acquires (and hands their permits on) once the database answers again, instead of leaving
 * them held for a lease; a failure the database answered gives nothing up.
 */
@Timeout(60)
class LostCommitTest {

  private static final Duration BOUND = Duration.ofSeconds(20);

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void theGrantsOfABatchWhoseCommitAnswerWasLostAreGivenUpOnceTheDatabaseAnswers()
      throws Exception {
    TestServices.Endpoint postgres = TestServices.postgresql();
    PermitSpec spec = new PermitSpec("lost-commit", 2, 60_000);
    try (OutageRelay relay = new OutageRelay(postgres.host(), postgres.port())) {
      relay.open();
      Map<String, String> config = fixture.config();
      config.put("url", "jdbc:postgresql://127.0.0.1:" + relay.port() + "/test");
      config.put("connect-timeout", "500ms");
      config.put("reconnect-interval", "200ms");
      try (JpaStore store = fixture.open(config, (request, token) -> {})) {
        // the batch committed: requests 1 and 2 hold both permits, request 3 is queued
        List<Operation> batch =
            List.of(
                Operation.acquire(1, false),
                Operation.acquire(2, false),
                Operation.acquire(3, true));
        assertThat(store.permits().apply(spec, batch))
            .extracting(Grant::isGranted)
            .containsExactly(true, true, false);

        // ...and its answer was lost with the connection, which stays away for a while
        relay.close();
        StoreException lost =
            new StoreException(
                "the connection broke during COMMIT",
                new SQLException("An I/O error occurred while sending to the backend", "08006"));
        store
            .lostBatches()
            .failed(lost, batch, spec.leaseMillis(), giveUp -> store.permits().apply(spec, giveUp));
        store.lostBatches().giveUpDue();
        assertThat(store.lostBatches().size()).as("kept while the database is away").isEqualTo(1);

        relay.open();
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (store.lostBatches().size() > 0) {
          assertThat(System.nanoTime() - deadline).as("given up within %s", BOUND).isNegative();
          Thread.sleep(50);
        }
        assertThat(onceAnswered(() -> store.permits().acquire(spec, 4, false), deadline))
            .as("the permits the lost batch took are free again")
            .isEqualTo(Grant.GRANTED);
        assertThat(store.permits().acquire(spec, 5, false)).isEqualTo(Grant.GRANTED);
        assertThat(store.permits().poll(spec, 3))
            .as("the lost batch's queued request is withdrawn, not handed a permit")
            .isEqualTo(Grant.REJECTED);
      }
    }
  }

  /**
   * The call's answer once the database answers it: a pooled connection the relay broke, used again
   * within the pool's window for skipping its check (500 ms), fails the call it is handed to as the
   * database unreachable, and the pool drops it; the next call gets a sound one.
   */
  private static Grant onceAnswered(Supplier<Grant> call, long deadline) {
    while (true) {
      try {
        return call.get();
      } catch (StoreException brokenConnection) {
        assertThat(System.nanoTime() - deadline)
            .as("answered within %s: %s", BOUND, brokenConnection)
            .isNegative();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // the gate may fail calls fast
      }
    }
  }

  @Test
  void aFailureTheDatabaseAnsweredGivesNothingUp() {
    PermitSpec spec = new PermitSpec("answered-failure", 1, 60_000);
    try (JpaStore store = fixture.open(fixture.config(), (request, token) -> {})) {
      List<Operation> batch = List.of(Operation.acquire(1, false));
      assertThat(store.permits().apply(spec, batch).get(0).isGranted()).isTrue();

      store
          .lostBatches()
          .failed(
              new StoreException("a constraint failed", new SQLException("duplicate", "23505")),
              batch,
              spec.leaseMillis(),
              giveUp -> store.permits().apply(spec, giveUp));

      assertThat(store.lostBatches().size()).isZero();
      assertThat(store.permits().acquire(spec, 2, false))
          .as("request 1 still holds the permit")
          .isEqualTo(Grant.REJECTED);
    }
  }
}
