package dev.bulwark.it.cluster.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Instants in ms, as nanoseconds: the rule's tolerances are durations. */
class FifoRuleTest {

  private static final long MS = 1_000_000;

  /** Waited: more than 5 ms; requests more than 3 ms apart; entries more than 2 ms out of order. */
  private static FifoRule rule(double noiseShare) {
    return FifoRule.within(
        Duration.ofMillis(5), Duration.ofMillis(3), Duration.ofMillis(2), noiseShare);
  }

  private static CallRecord waiter(HandMadeCalls calls, String worker, long request, long enter) {
    return calls.granted(
        worker, "BULKHEAD", "-", request * MS, enter * MS, (enter + 20) * MS, (enter + 21) * MS);
  }

  @Test
  void waitersServedInArrivalOrderPass() {
    HandMadeCalls calls = new HandMadeCalls();
    waiter(calls, "w0", 0, 100);
    waiter(calls, "w1", 10, 110);
    waiter(calls, "w2", 20, 120);

    RuleOutcome outcome = rule(0).check(calls.history());

    assertThat(outcome.violations()).isEmpty();
    assertThat(outcome.figures()).contains("3 waiters, 3 pairs queued together, 0 inversions");
  }

  @Test
  void aWaiterOvertakenBeyondTheTolerancesIsAViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    CallRecord first = waiter(calls, "w0", 0, 120);
    CallRecord overtaker = waiter(calls, "w1", 10, 110);

    RuleOutcome outcome = rule(0).check(calls.history());

    assertThat(outcome.violations()).hasSize(1);
    assertThat(outcome.violations().get(0).records()).containsExactly(first, overtaker);
  }

  @Test
  void inversionsWithinTheTolerancesAreNoViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    // requests 2 ms apart: not ordered
    waiter(calls, "w0", 0, 120);
    waiter(calls, "w1", 2, 100);
    // entries 2 ms out of order: not ordered
    waiter(calls, "w2", 50, 142);
    waiter(calls, "w3", 60, 140);

    assertThat(rule(0).check(calls.history()).violations()).isEmpty();
  }

  @Test
  void callsThatDidNotWaitAreNotCompared() {
    HandMadeCalls calls = new HandMadeCalls();
    waiter(calls, "w0", 0, 120);
    waiter(calls, "w1", 10, 14);

    assertThat(rule(0).check(calls.history()).violations()).isEmpty();
  }

  @Test
  void anInversionIsExcusedWhenTheOvertakenJvmStoodStill() {
    HandMadeCalls calls = new HandMadeCalls();
    waiter(calls, "w0", 0, 120);
    waiter(calls, "w1", 10, 110);
    History stalledOnItsWay =
        new History(calls.calls(), Map.of("w0", List.of(new long[] {2 * MS, 40 * MS})));
    History stalledElsewhere =
        new History(calls.calls(), Map.of("w1", List.of(new long[] {2 * MS, 40 * MS})));

    assertThat(rule(0).check(stalledOnItsWay).violations()).isEmpty();
    assertThat(rule(0).check(stalledElsewhere).violations()).hasSize(1);
  }

  @Test
  void aShareOfNoiseIsTolerated() {
    HandMadeCalls calls = new HandMadeCalls();
    // eleven waiters queued together (55 pairs), in order but for one inversion: the one that
    // asked at 5 ms is overtaken by the one that asked at 10 ms
    for (int i = 0; i < 10; i++) {
      waiter(calls, "w" + i, 10L * i, 200 + 10L * i);
    }
    waiter(calls, "late", 5, 215);

    assertThat(rule(0.1).check(calls.history()).violations()).isEmpty();
    assertThat(rule(0.001).check(calls.history()).violations()).isNotEmpty();
  }

  @Test
  void onlyTheCallsNamedAreCompared() {
    HandMadeCalls calls = new HandMadeCalls();
    waiter(calls, "w0", 0, 120);
    waiter(calls, "w1", 10, 110);

    FifoRule notW0 = rule(0).only(c -> !c.worker().equals("w0"), "calls of other JVMs");
    assertThat(notW0.check(calls.history()).violations()).isEmpty();
  }
}
