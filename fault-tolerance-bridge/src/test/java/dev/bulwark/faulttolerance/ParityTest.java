package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.faulttolerance.ParityTargets.BulwarkTarget;
import dev.bulwark.faulttolerance.ParityTargets.Retries;
import dev.bulwark.faulttolerance.ParityTargets.SmallRyeTarget;
import dev.bulwark.faulttolerance.ParityTargets.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bulwark's {@code @DistributedBulkhead} in local mode against SmallRye FT's {@code @Bulkhead}: the
 * same scenario runs against both and records what each call saw (its result, or the MicroProfile
 * FT exception type it failed with); the two records must be equal, and equal to what MicroProfile
 * FT specifies. Synchronous calls with no waiting time only: Bulwark can also wait for a permit,
 * which a synchronous {@code @Bulkhead} never does; {@link AsyncParityTest} compares asynchronous
 * methods.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParityTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  private static WeldContainer container;
  private ExecutorService holders;

  @BeforeAll
  static void boot() {
    container = Containers.boot(BulwarkTarget.class, SmallRyeTarget.class);
  }

  @AfterAll
  static void shutDown() {
    container.close();
  }

  @BeforeEach
  void startHolders() {
    holders = Executors.newCachedThreadPool();
  }

  @AfterEach
  void stopHolders() throws InterruptedException {
    holders.shutdownNow();
    assertThat(holders.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  /** A record of one scenario on both targets: Bulwark's first, then SmallRye's. */
  private List<List<String>> onBoth(ScenarioBody scenario) throws Exception {
    List<String> bulwark = scenario.run(container.select(BulwarkTarget.class).get());
    List<String> smallRye = scenario.run(container.select(SmallRyeTarget.class).get());
    return List.of(bulwark, smallRye);
  }

  @FunctionalInterface
  interface ScenarioBody {
    List<String> run(Target target) throws Exception;
  }

  @Test
  void admitsUpToTheValueRejectsTheNextAndAdmitsAgainOnceOneLeft() throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              Gate gate = new Gate();
              List<Future<String>> held = holdInside(2, gate, target::hold);
              List<String> record = new ArrayList<>();
              record.add(outcome(() -> target.hold(Gate.opened())));
              gate.open();
              for (Future<String> call : held) {
                record.add(call.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
              }
              record.add(outcome(() -> target.hold(Gate.opened())));
              record.add("max inside " + gate.maxInside());
              return record;
            });

    assertThat(records.get(0)).isEqualTo(records.get(1));
    assertThat(records.get(0))
        .containsExactly("BulkheadException", "ran", "ran", "ran", "max inside 2");
  }

  @Test
  void bulwarksRejectionIsAMicroProfileBulkheadException() throws Exception {
    Target target = container.select(BulwarkTarget.class).get();
    Gate gate = new Gate();
    holdInside(2, gate, target::hold);
    try {
      target.hold(Gate.opened());
      throw new AssertionError("the third call was admitted");
    } catch (BulkheadException rejected) {
      assertThat(rejected).isInstanceOf(BulkheadFullException.class);
    } finally {
      gate.open();
    }
  }

  @Test
  void fallbackHandlesTheRejection() throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              Gate gate = new Gate();
              List<Future<String>> held = holdInside(1, gate, target::withFallback);
              String rejected = outcome(() -> target.withFallback(Gate.opened()));
              gate.open();
              return List.of(rejected, held.get(0).get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            });

    assertThat(records.get(0)).isEqualTo(records.get(1)).containsExactly("fallback", "ran");
  }

  @Test
  void retryRetriesEveryRejectionUpToMaxRetries() throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              Gate gate = new Gate();
              holdInside(1, gate, g -> target.retried(g, new Retries()));
              Retries retries = new Retries();
              String outcome = outcome(() -> target.retried(Gate.opened(), retries));
              gate.open();
              return List.of(outcome, "retries " + retries.count());
            });

    assertThat(records.get(0))
        .isEqualTo(records.get(1))
        .containsExactly("BulkheadException", "retries 2");
  }

  @Test
  void retrySucceedsOnceThePermitCameFree() throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              Gate gate = new Gate();
              Future<String> holder =
                  holdInside(1, gate, g -> target.retried(g, new Retries())).get(0);
              Retries retries =
                  new Retries(
                      () -> {
                        gate.open();
                        await(holder);
                      });
              String outcome = outcome(() -> target.retried(Gate.opened(), retries));
              return List.of(outcome, "retries " + retries.count(), await(holder));
            });

    assertThat(records.get(0)).isEqualTo(records.get(1)).containsExactly("ran", "retries 1", "ran");
  }

  @Test
  void circuitBreakerCountsRejectionsAsFailuresAndOpens() throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              Gate gate = new Gate();
              List<Future<String>> held = holdInside(1, gate, target::breaker);
              List<String> record = new ArrayList<>();
              for (int i = 0; i < 3; i++) {
                record.add(outcome(() -> target.breaker(Gate.opened())));
              }
              gate.open();
              record.add(held.get(0).get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
              record.add(outcome(() -> target.breaker(Gate.opened())));
              return record;
            });

    assertThat(records.get(0))
        .isEqualTo(records.get(1))
        .containsExactly(
            "BulkheadException",
            "BulkheadException",
            "CircuitBreakerOpenException",
            "ran",
            "CircuitBreakerOpenException");
  }

  /** Starts {@code count} calls that stay inside until the gate opens; returns once inside. */
  private List<Future<String>> holdInside(int count, Gate gate, Function<Gate, String> call)
      throws InterruptedException {
    List<Future<String>> calls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      calls.add(holders.submit(() -> call.apply(gate)));
    }
    gate.awaitInside(count, WAIT);
    return calls;
  }

  private static String await(Future<String> call) {
    try {
      return call.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The call's result, or the MicroProfile FT exception type it failed with. */
  private static String outcome(Callable<String> call) {
    try {
      return call.call();
    } catch (CircuitBreakerOpenException e) {
      return "CircuitBreakerOpenException";
    } catch (BulkheadException e) {
      return "BulkheadException";
    } catch (Exception e) {
      return "unexpected " + e;
    }
  }
}
