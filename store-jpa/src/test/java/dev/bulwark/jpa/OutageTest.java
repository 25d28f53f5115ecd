package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.core.outage.OutageGate;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import dev.bulwark.tck.OutageRelay;
import dev.bulwark.tck.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The database going away between the store and PostgreSQL (a relay that is closed and opened
 * again): calls fail with {@link StoreException}, the store works again without a restart once the
 * database answers, and the outage is logged once when it starts and once when it ends, never with
 * the password.
 */
class OutageTest {

  private static final String PASSWORD = "outage-pass-never-logged";
  private static final Duration BOUND = Duration.ofSeconds(20);

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  private final List<LogRecord> logged = new ArrayList<>();
  private final Logger gateLog = Logger.getLogger(OutageGate.class.getName());
  private final Handler recorder =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          synchronized (logged) {
            logged.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void recordLog() {
    gateLog.addHandler(recorder);
  }

  @AfterEach
  void stopRecording() {
    gateLog.removeHandler(recorder);
    fixture.close();
  }

  @Test
  void callsFailWhileTheDatabaseIsAwayAndWorkAgainWhenItIsBack() throws Exception {
    TestServices.Endpoint postgres = TestServices.postgresql();
    PermitSpec spec = new PermitSpec("outage", 2, 60_000);
    try (OutageRelay relay = new OutageRelay(postgres.host(), postgres.port())) {
      relay.open();
      Map<String, String> config = throughRelay(relay);
      config.put("password", PASSWORD);
      try (JpaStore store = fixture.open(config, (r, t) -> {})) {
        assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);

        relay.close();
        assertThatThrownBy(() -> store.permits().acquire(spec, 2, false))
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("unreachable");
        assertThatThrownBy(() -> store.permits().release(spec, 1))
            .isInstanceOf(StoreException.class);

        relay.open();
        Grant afterwards = retryUntilAnswered(() -> store.permits().acquire(spec, 2, false));
        assertThat(afterwards).isEqualTo(Grant.GRANTED);
        assertThat(store.permits().acquire(spec, 3, false))
            .as("request 1 still holds its permit: nothing was lost in the outage")
            .isEqualTo(Grant.REJECTED);
      }
    }
    synchronized (logged) {
      assertThat(logged.stream().filter(r -> r.getLevel() == Level.WARNING))
          .as("one line when the outage starts")
          .hasSize(1);
      assertThat(logged.stream().filter(r -> r.getLevel() == Level.INFO))
          .as("one line when it ends")
          .hasSize(1)
          .allSatisfy(r -> assertThat(r.getMessage()).contains("answers again"));
      assertThat(logged).noneSatisfy(r -> assertThat(r.getMessage()).contains(PASSWORD));
    }
  }

  /**
   * A look for hand-overs that failed may have cleared marks it never told (committed, answer
   * lost): the wake-up epoch is -1 from then until a look succeeds, and then a new number, the
   * listener told of both changes, so the waiters that trusted the old one poll once.
   */
  @Test
  void aFailedLookForHandOversMovesTheWakeUpEpochOnceOneSucceedsAgain() throws Exception {
    TestServices.Endpoint postgres = TestServices.postgresql();
    AtomicInteger changes = new AtomicInteger();
    GrantListener listener =
        new GrantListener() {
          @Override
          public void granted(long requestId, long fencingToken) {}

          @Override
          public void wakeUpsChanged() {
            changes.incrementAndGet();
          }
        };
    try (OutageRelay relay = new OutageRelay(postgres.host(), postgres.port())) {
      relay.open();
      Map<String, String> config = throughRelay(relay);
      try (JpaStore store = fixture.open(config, listener)) {
        store.deliverWakeUps();
        long before = store.wakeUpEpoch();
        assertThat(before).isNotNegative();
        assertThat(changes).hasValue(0);

        relay.close();
        assertThatThrownBy(store::deliverWakeUps).isInstanceOf(StoreException.class);
        assertThat(store.wakeUpEpoch()).isEqualTo(-1);
        assertThat(changes).hasValue(1);

        relay.open();
        retryUntilAnswered(
            () -> {
              store.deliverWakeUps();
              return Grant.GRANTED;
            });
        assertThat(store.wakeUpEpoch()).isNotNegative().isNotEqualTo(before);
        assertThat(changes).hasValue(2);
      }
    }
  }

  @Test
  void theProbeFailsWhileTheDatabaseIsAwayAndAnswersWhenItIsBack() throws Exception {
    TestServices.Endpoint postgres = TestServices.postgresql();
    try (OutageRelay relay = new OutageRelay(postgres.host(), postgres.port())) {
      relay.open();
      Map<String, String> config = throughRelay(relay);
      try (JpaStore store = fixture.open(config, (r, t) -> {})) {
        assertThat(store.reconnectInterval()).isEqualTo(Duration.ofMillis(200));
        store.probe();

        relay.close();
        assertThatThrownBy(store::probe)
            .isInstanceOf(StoreException.class)
            .hasMessageContaining("unreachable");

        relay.open();
        retryUntilAnswered(
            () -> {
              store.probe();
              return Grant.GRANTED;
            });
      }
    }
  }

  private static Grant retryUntilAnswered(java.util.function.Supplier<Grant> call)
      throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (true) {
      try {
        return call.get();
      } catch (StoreException e) {
        if (System.nanoTime() - deadline > 0) {
          throw new AssertionError("the store did not work again within " + BOUND, e);
        }
        Thread.sleep(100);
      }
    }
  }

  /** The store's settings with PostgreSQL reached through {@code relay}, and short timeouts. */
  private Map<String, String> throughRelay(OutageRelay relay) {
    Map<String, String> config = fixture.config();
    config.put("url", "jdbc:postgresql://127.0.0.1:" + relay.port() + "/test");
    config.put("connect-timeout", "500ms");
    config.put("reconnect-interval", "200ms");
    return config;
  }
}
