package dev.bulwark.core.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An outage is what the store's diagnosis says it is: during one, calls fail without running until
 * the reconnect interval lets one try again, and the first that gets through ends it; each outage
 * is logged once when it starts and once when it ends. The intervals are either far longer than the
 * test (nobody may try again) or zero (the next call may), so no outcome depends on timing.
 */
class OutageGateTest {

  /** A lost connection, as a store's client would throw it. */
  private static final class ConnectionLost extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ConnectionLost(String message) {
      super(message);
    }
  }

  private static final Duration NEVER_DURING_THE_TEST = Duration.ofHours(1);

  private final AtomicInteger outages = new AtomicInteger();
  private final AtomicInteger runs = new AtomicInteger();
  private final List<LogRecord> log = new ArrayList<>();
  private final Logger logger = Logger.getLogger(OutageGate.class.getName());
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          synchronized (log) {
            log.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void captureLog() {
    logger.addHandler(capture);
  }

  @AfterEach
  void releaseLog() {
    logger.removeHandler(capture);
  }

  private OutageGate gate(Duration reconnectInterval) {
    return new OutageGate(
        "Store at test:1",
        reconnectInterval,
        failure -> failure instanceof ConnectionLost ? "lost: " + failure.getMessage() : null,
        outages::incrementAndGet);
  }

  private Supplier<String> answering(String answer) {
    return () -> {
      runs.incrementAndGet();
      return answer;
    };
  }

  private Supplier<String> failingWith(RuntimeException failure) {
    return () -> {
      runs.incrementAndGet();
      throw failure;
    };
  }

  private List<String> logged() {
    synchronized (log) {
      return log.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList();
    }
  }

  @Test
  void aStoreThatAnswersIsCalledAndNothingIsLogged() {
    OutageGate gate = gate(NEVER_DURING_THE_TEST);

    assertThat(gate.call(answering("a"))).isEqualTo("a");
    assertThat(gate.call(answering("b"))).isEqualTo("b");

    assertThat(runs).hasValue(2);
    assertThat(gate.isDown()).isFalse();
    assertThat(outages).hasValue(0);
    assertThat(logged()).isEmpty();
  }

  @Test
  void aFailureTheStoreAnsweredWithLeavesAsItCameAndIsNoOutage() {
    OutageGate gate = gate(NEVER_DURING_THE_TEST);
    IllegalStateException conflict = new IllegalStateException("conflict");

    assertThatThrownBy(() -> gate.call(failingWith(conflict))).isSameAs(conflict);

    assertThat(gate.isDown()).isFalse();
    assertThat(outages).hasValue(0);
    assertThat(gate.call(answering("next"))).isEqualTo("next");
    assertThat(logged()).isEmpty();
  }

  @Test
  void duringAnOutageCallsFailWithoutRunningUntilTheReconnectInterval() {
    OutageGate gate = gate(NEVER_DURING_THE_TEST);
    ConnectionLost lost = new ConnectionLost("reset");

    assertThatThrownBy(() -> gate.call(failingWith(lost)))
        .isInstanceOf(StoreException.class)
        .hasMessage("Store at test:1 is unreachable: lost: reset")
        .hasCause(lost);
    assertThat(gate.isDown()).isTrue();
    assertThat(outages).hasValue(1);

    assertThatThrownBy(() -> gate.call(answering("too early")))
        .isInstanceOf(StoreException.class)
        .hasMessage("Store at test:1 is unreachable: lost: reset");
    assertThatThrownBy(() -> gate.call(answering("too early"))).isInstanceOf(StoreException.class);

    assertThat(runs).as("only the call that met the outage ran").hasValue(1);
    assertThat(gate.isDown()).isTrue();
    assertThat(logged())
        .containsExactly(
            "WARNING BULWARK0101: Store at test:1 is unreachable (lost: reset); the failure policy"
                + " applies until it answers again");
  }

  @Test
  void aCallAfterTheIntervalTriesAgainAndTheFirstAnswerEndsTheOutage() {
    OutageGate gate = gate(Duration.ZERO);

    assertThatThrownBy(() -> gate.call(failingWith(new ConnectionLost("reset"))))
        .isInstanceOf(StoreException.class);
    assertThatThrownBy(() -> gate.call(failingWith(new ConnectionLost("refused"))))
        .isInstanceOf(StoreException.class)
        .hasMessage("Store at test:1 is unreachable: lost: refused");
    assertThat(gate.isDown()).isTrue();
    assertThat(outages).as("every failure of the outage drops connections").hasValue(2);

    assertThat(gate.call(answering("back"))).isEqualTo("back");

    assertThat(gate.isDown()).isFalse();
    assertThat(gate.call(answering("again"))).isEqualTo("again");
    assertThat(runs).hasValue(4);
    List<String> logged = logged();
    assertThat(logged).hasSize(2);
    assertThat(logged.get(0))
        .as("one warning for the outage, naming its first failure")
        .startsWith("WARNING BULWARK0101: Store at test:1 is unreachable (lost: reset)");
    assertThat(logged.get(1))
        .matches("INFO BULWARK0102: Store at test:1 answers again after about \\d+ s");
  }

  @Test
  void aSecondOutageIsLoggedAsANewOne() {
    OutageGate gate = gate(Duration.ZERO);

    assertThatThrownBy(() -> gate.call(failingWith(new ConnectionLost("first"))))
        .isInstanceOf(StoreException.class);
    gate.call(answering("back"));
    assertThatThrownBy(() -> gate.call(failingWith(new ConnectionLost("second"))))
        .isInstanceOf(StoreException.class);

    assertThat(gate.isDown()).isTrue();
    assertThat(logged())
        .hasSize(3)
        .element(2)
        .asString()
        .startsWith("WARNING BULWARK0101: Store at test:1 is unreachable (lost: second)");
  }
}
