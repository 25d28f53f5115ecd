package dev.bulwark.it.cluster.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Instants in nanoseconds; the limit in grants per second. */
class RateRuleTest {

  private static final long MS = 1_000_000;

  @Test
  void theBurstAtOnceThenTheRatePass() {
    HandMadeCalls calls = new HandMadeCalls();
    for (int i = 0; i < 5; i++) {
      calls.rate(0, MS);
    }
    // 50/s: one every 20 ms
    for (int i = 1; i <= 100; i++) {
      calls.rate(i * 20 * MS, i * 20 * MS + MS / 2);
    }

    RuleOutcome outcome = RateRule.atMost(5, 50).check(calls.history());

    assertThat(outcome.violations()).isEmpty();
  }

  @Test
  void oneGrantMoreThanTheBurstAtOnceIsAViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    for (int i = 0; i < 6; i++) {
      calls.rate(0, MS);
    }

    RuleOutcome outcome = RateRule.atMost(5, 50).check(calls.history());

    assertThat(outcome.violations()).hasSize(1);
    assertThat(outcome.violations().get(0).records()).hasSize(6);
    assertThat(RateRule.atMost(5, 50).tolerating(1).check(calls.history()).violations()).isEmpty();
  }

  @Test
  void grantsFasterThanTheRateOverALongIntervalAreOneViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    // 100/s for a second on a limit of 50/s with a burst of 5
    for (int i = 0; i < 100; i++) {
      calls.rate(i * 10 * MS, i * 10 * MS + MS / 2);
    }

    RuleOutcome outcome = RateRule.atMost(5, 50).check(calls.history());

    assertThat(outcome.violations()).hasSize(1);
    // the worst interval: all of them, over 990.5 ms, where 5 + 49.5 are allowed
    assertThat(outcome.violations().get(0).records()).hasSize(100);
  }

  @Test
  void grantsWhoseInstantsTheRecordsLeaveOpenCountOverTheirWholeWindow() {
    // two grants somewhere in [0, 1 s]: a burst of 1 at 1/s allows 2 there
    HandMadeCalls wide = new HandMadeCalls();
    wide.rate(0, 1000 * MS);
    wide.rate(0, 1000 * MS);
    assertThat(RateRule.atMost(1, 1).check(wide.history()).violations()).isEmpty();

    // known to lie in [0, 1 ms]: 1.001 allowed
    HandMadeCalls narrow = new HandMadeCalls();
    narrow.rate(0, MS);
    narrow.rate(0, MS);
    assertThat(RateRule.atMost(1, 1).check(narrow.history()).violations()).hasSize(1);
  }

  @Test
  void exactlyTheAllowanceIsLegal() {
    // 3 grants in [0, 1 s]: burst 1 + 2/s × 1 s
    HandMadeCalls calls = new HandMadeCalls();
    calls.rate(0, 1);
    calls.rate(500 * MS, 500 * MS + 1);
    calls.rate(1000 * MS - 1, 1000 * MS);

    assertThat(RateRule.atMost(1, 2).check(calls.history()).violations()).isEmpty();
  }

  @Test
  void separateOvershootsAreSeparateViolations() {
    HandMadeCalls calls = new HandMadeCalls();
    for (int i = 0; i < 3; i++) {
      calls.rate(0, MS);
      calls.rate(10_000 * MS, 10_001 * MS);
    }

    assertThat(RateRule.atMost(2, 1).check(calls.history()).violations()).hasSize(2);
  }
}
