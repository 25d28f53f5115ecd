package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.faulttolerance.AsyncParityTargets.AsyncTarget;
import dev.bulwark.faulttolerance.AsyncParityTargets.BulwarkAsync;
import dev.bulwark.faulttolerance.AsyncParityTargets.SmallRyeAsync;
import dev.bulwark.faulttolerance.ParityTargets.Retries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ParityTest} for {@code @Asynchronous} methods returning {@code CompletionStage}: each
 * scenario records what every call saw on Bulwark's {@code @DistributedBulkhead} (local store) and
 * on SmallRye FT's {@code @Bulkhead}, and the records must be equal. SmallRye's asynchronous
 * bulkhead queues at least one call once full, Bulwark's does not: the scenarios fill that queue
 * first ({@link AsyncTarget#queue()}), and {@link #onlySmallRyeQueuesTheCallAfterAFullBulkhead}
 * shows the difference itself.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncParityTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  /** How long a call that is neither admitted nor rejected must stay so to count as queued. */
  private static final Duration SETTLE = Duration.ofSeconds(1);

  private static WeldContainer container;

  @BeforeAll
  static void boot() {
    container = Containers.boot(BulwarkAsync.class, SmallRyeAsync.class);
  }

  @AfterAll
  static void shutDown() {
    container.close();
  }

  @FunctionalInterface
  interface Scenario {
    List<String> run(AsyncTarget target) throws Exception;
  }

  private static List<List<String>> onBoth(Scenario scenario) throws Exception {
    return List.of(
        scenario.run(container.select(BulwarkAsync.class).get()),
        scenario.run(container.select(SmallRyeAsync.class).get()));
  }

  @Test
  void holdsThePermitUntilTheStageCompletesAndFailsTheNextStageWithABulkheadException()
      throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              AsyncGate gate = new AsyncGate();
              List<CompletableFuture<String>> held = fill(2, target, gate, target::hold);
              List<String> record = new ArrayList<>();
              record.add(
                  "held returned incomplete " + held.stream().noneMatch(CompletableFuture::isDone));
              record.add(outcome(() -> target.hold(AsyncGate.opened())));
              gate.open();
              record.add("held then " + results(held));
              record.add("max inside " + gate.maxInside());
              record.add(outcome(() -> target.hold(AsyncGate.opened())));
              return record;
            });

    assertThat(records.get(0))
        .isEqualTo(records.get(1))
        .containsExactly(
            "held returned incomplete true",
            "failed BulkheadException",
            "held then [ran]",
            "max inside 2",
            "ran");
  }

  @Test
  void bulwarksRejectionIsABulkheadFullExceptionInTheStageNotThrown() throws Exception {
    AsyncTarget target = container.select(BulwarkAsync.class).get();
    AsyncGate gate = new AsyncGate();
    fill(2, target, gate, target::hold);
    try {
      CompletableFuture<String> rejected = target.hold(AsyncGate.opened()).toCompletableFuture();
      assertThat(rejected)
          .failsWithin(WAIT)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isInstanceOf(BulkheadFullException.class)
          .isInstanceOf(BulkheadException.class);
    } finally {
      gate.open();
    }
  }

  @Test
  void fallbackHandlesTheRejection() throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              AsyncGate gate = new AsyncGate();
              List<CompletableFuture<String>> held = fill(1, target, gate, target::withFallback);
              String rejected = outcome(() -> target.withFallback(AsyncGate.opened()));
              gate.open();
              return List.of(rejected, "held then " + results(held));
            });

    assertThat(records.get(0))
        .isEqualTo(records.get(1))
        .containsExactly("fallback", "held then [ran]");
  }

  @Test
  void retryRetriesEveryRejectionUpToMaxRetries() throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              AsyncGate gate = new AsyncGate();
              List<CompletableFuture<String>> held =
                  fill(1, target, gate, g -> target.retried(g, new Retries()));
              Retries retries = new Retries();
              String outcome = outcome(() -> target.retried(AsyncGate.opened(), retries));
              gate.open();
              return List.of(outcome, "retries " + retries.count(), "held then " + results(held));
            });

    assertThat(records.get(0))
        .isEqualTo(records.get(1))
        .containsExactly("failed BulkheadException", "retries 2", "held then [ran]");
  }

  /**
   * Where Bulwark differs on purpose: with its bulkhead full, SmallRye's {@code @Asynchronous}
   * {@code @Bulkhead} queues the next call (up to {@code waitingTaskQueue}), Bulwark's rejects it
   * at once when its waiting time is 0, and with a waiting time lets it wait without a queue bound.
   */
  @Test
  void onlySmallRyeQueuesTheCallAfterAFullBulkhead() throws Exception {
    List<List<String>> records =
        onBoth(
            target -> {
              AsyncGate gate = new AsyncGate();
              List<CompletableFuture<String>> held = new ArrayList<>();
              for (int i = 0; i < 2; i++) {
                held.add(target.hold(gate).toCompletableFuture());
              }
              gate.awaitInside(2, WAIT);
              CompletableFuture<String> next = target.hold(gate).toCompletableFuture();
              String seen = settled(next);
              gate.open();
              results(held);
              return List.of(seen, outcome(() -> next));
            });

    assertThat(records.get(0))
        .containsExactly("failed BulkheadException", "failed BulkheadException");
    assertThat(records.get(1)).containsExactly("queued", "ran");
  }

  /**
   * Starts {@code value} calls that stay inside until the gate opens, then as many as the target
   * queues; returns every call's stage once the first {@code value} are inside.
   */
  private static List<CompletableFuture<String>> fill(
      int value,
      AsyncTarget target,
      AsyncGate gate,
      Function<AsyncGate, CompletionStage<String>> call)
      throws InterruptedException {
    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (int i = 0; i < value; i++) {
      calls.add(call.apply(gate).toCompletableFuture());
    }
    gate.awaitInside(value, WAIT);
    for (int i = 0; i < target.queue(); i++) {
      calls.add(call.apply(gate).toCompletableFuture());
    }
    return calls;
  }

  /** The distinct results of the calls, each awaited. */
  private static List<String> results(List<CompletableFuture<String>> calls) {
    return calls.stream().map(call -> outcome(() -> call)).distinct().toList();
  }

  /**
   * A call whose stage has not completed after {@link #SETTLE} is queued: the gate is closed, so an
   * admitted call cannot complete, and a rejection completes the stage at once (Bulwark's within
   * milliseconds: its rejection is decided on the caller's or FT's thread with no wait).
   */
  private static String settled(CompletableFuture<String> call) {
    try {
      call.get(SETTLE.toMillis(), TimeUnit.MILLISECONDS);
      return "completed before the gate opened";
    } catch (TimeoutException e) {
      return "queued";
    } catch (ExecutionException e) {
      return "failed " + type(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  /**
   * The stage's value, or the MicroProfile FT exception type it failed with; {@code thrown …} when
   * the call threw instead of returning a stage.
   */
  private static String outcome(Supplier<CompletionStage<String>> call) {
    CompletionStage<String> stage;
    try {
      stage = call.get();
    } catch (RuntimeException e) {
      return "thrown " + type(e);
    }
    try {
      return stage.toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return "failed " + type(e.getCause());
    } catch (TimeoutException e) {
      return "not completed within " + WAIT;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static String type(Throwable failure) {
    return failure instanceof BulkheadException ? "BulkheadException" : failure.toString();
  }
}
