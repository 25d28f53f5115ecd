package dev.bulwark.it.cluster.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FencingRuleTest {

  private static final FencingRule RULE = FencingRule.tokensGrowPerKey();

  @Test
  void tokensGrowingInGrantOrderPass() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.write("k", 0, 10, 20, 1);
    calls.write("k", 5, 20, 30, 2);
    calls.write("k", 6, 30, 40, 7);

    RuleOutcome outcome = RULE.check(calls.history());
    assertThat(outcome.violations()).isEmpty();
    assertThat(outcome.figures()).contains("2 with a known predecessor");
  }

  @Test
  void aSmallerTokenAfterALargerOneIsAViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    CallRecord first = calls.write("k", 0, 10, 20, 5);
    CallRecord second = calls.write("k", 5, 25, 30, 4);

    RuleOutcome outcome = RULE.check(calls.history());

    assertThat(outcome.violations()).hasSize(1);
    assertThat(outcome.violations().get(0).records()).containsExactly(first, second);
  }

  @Test
  void anEqualTokenIsAViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.write("k", 0, 10, 20, 3);
    calls.write("k", 30, 31, 40, 3);

    assertThat(RULE.check(calls.history()).violations()).hasSize(1);
  }

  @Test
  void grantsWhoseOrderTheRecordsLeaveOpenAreNotCompared() {
    // grant windows [0, 10] and [5, 12] overlap, and so do the bodies: either may have come first
    HandMadeCalls calls = new HandMadeCalls();
    calls.write("k", 0, 10, 20, 5);
    calls.write("k", 5, 12, 18, 3);

    assertThat(RULE.check(calls.history()).violations()).isEmpty();
  }

  @Test
  void aWriteEnteredBeforeAnotherWasRequestedPrecedesItEvenWithoutAnEnd() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.unended("WRITE", "k", 0, 10, 9);
    calls.write("k", 10, 50, 60, 4);

    assertThat(RULE.check(calls.history()).violations()).hasSize(1);
  }

  @Test
  void keysHaveTheirOwnTokens() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.write("k1", 0, 10, 20, 9);
    calls.write("k2", 30, 31, 40, 1);

    assertThat(RULE.check(calls.history()).violations()).isEmpty();
  }
}
