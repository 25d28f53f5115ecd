package dev.bulwark.it.cluster.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CapacityRuleTest {

  @Test
  void holdersUpToTheLimitPass() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.bulkhead(10, 30);
    calls.bulkhead(20, 40);
    calls.bulkhead(35, 50);

    assertThat(CapacityRule.atMost(2).check(calls.history()).violations()).isEmpty();
  }

  @Test
  void oneHolderTooManyIsAViolationNamingEveryHolder() {
    HandMadeCalls calls = new HandMadeCalls();
    CallRecord a = calls.bulkhead(10, 30);
    CallRecord b = calls.bulkhead(20, 40);
    CallRecord c = calls.bulkhead(25, 26);

    RuleOutcome outcome = CapacityRule.atMost(2).check(calls.history());

    assertThat(outcome.violations()).hasSize(1);
    assertThat(outcome.violations().get(0).records()).containsExactlyInAnyOrder(a, b, c);
    assertThat(outcome.violations().get(0).what()).contains("3 holders at 25");
  }

  @Test
  void intervalsThatTouchDoNotOverlap() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.bulkhead(10, 20);
    calls.bulkhead(20, 30);

    assertThat(CapacityRule.atMost(1).check(calls.history()).violations()).isEmpty();
  }

  @Test
  void holdsThatOnlyMayHaveOverlappedAreNoViolation() {
    // A released somewhere in [20, 30], B granted somewhere in [15, 25]: they may have overlapped
    HandMadeCalls calls = new HandMadeCalls();
    calls.granted("w0", "BULKHEAD", "-", 5, 10, 20, 30);
    calls.granted("w1", "BULKHEAD", "-", 15, 25, 40, 41);

    assertThat(CapacityRule.atMost(1).check(calls.history()).violations()).isEmpty();

    // but a body that began before A's ended proves it
    calls.granted("w2", "BULKHEAD", "-", 15, 19, 22, 23);
    assertThat(CapacityRule.atMost(1).check(calls.history()).violations()).hasSize(1);
  }

  @Test
  void onlyCallsEnteredFromTheGivenInstantCountWhenAsked() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.bulkhead(10, 100); // let in earlier, still inside
    calls.bulkhead(50, 60);
    calls.bulkhead(55, 70);
    CapacityRule fromFifty = CapacityRule.atMost(2).during(50, 200).enteredFrom(50);

    assertThat(CapacityRule.atMost(2).during(50, 200).check(calls.history()).violations())
        .hasSize(1);
    assertThat(fromFifty.check(calls.history()).violations()).isEmpty();
    calls.bulkhead(58, 59);
    assertThat(fromFifty.check(calls.history()).violations()).hasSize(1);
  }

  @Test
  void aKilledJvmsHoldLastsUntilTheDeclaredInstant() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.unended("BULKHEAD", "-", 5, 10, 0);
    calls.bulkhead(50, 60);

    assertThat(CapacityRule.atMost(1).check(calls.history()).violations())
        .as("held for the rest of the history")
        .hasSize(1);
    assertThat(CapacityRule.atMost(1).unendedHeldUntil(50).check(calls.history()).violations())
        .as("lease over when the other entered")
        .isEmpty();
    assertThat(CapacityRule.atMost(1).unendedHeldUntil(55).check(calls.history()).violations())
        .as("lease still running when the other entered")
        .hasSize(1);
  }

  @Test
  void perWorkerLimitsEachJvmAlone() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.bulkhead("w0", 10, 30);
    calls.bulkhead("w0", 10, 30);
    calls.bulkhead("w1", 10, 30);
    calls.bulkhead("w1", 10, 30);

    assertThat(CapacityRule.atMost(2).perWorker().check(calls.history()).violations()).isEmpty();
    assertThat(CapacityRule.atMost(2).check(calls.history()).violations()).hasSize(2);
  }

  @Test
  void aWindowJudgesOnlyItsInstantsCountingHoldsBegunBeforeIt() {
    HandMadeCalls calls = new HandMadeCalls();
    // two at once during [10, 20], outside the window
    calls.bulkhead(10, 20);
    calls.bulkhead(15, 20);
    // at 100 a hold begun at 90 meets one entering at 100
    calls.bulkhead(90, 120);
    calls.bulkhead(100, 110);

    assertThat(CapacityRule.atMost(1).during(50, 95).check(calls.history()).violations()).isEmpty();
    assertThat(CapacityRule.atMost(1).during(95, 200).check(calls.history()).violations())
        .hasSize(1);
    assertThat(CapacityRule.atMost(1).during(20, 50).check(calls.history()).violations())
        .as("a hold that ends at the window's start is over")
        .isEmpty();
  }

  @Test
  void rejectedCallsAndOtherKindsHoldNothing() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.bulkhead(10, 30);
    calls.rejected("BULKHEAD", 12, 14);
    calls.lock("WRITE", "k", 15, 20);

    assertThat(CapacityRule.atMost(1).check(calls.history()).violations()).isEmpty();
  }
}
