package dev.bulwark.it.cluster.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LockExclusionRuleTest {

  private static final LockExclusionRule RULE = LockExclusionRule.writersAlone();

  @Test
  void readersShareAKey() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.lock("READ", "k", 10, 30);
    calls.lock("READ", "k", 15, 35);
    calls.lock("READ", "k", 20, 25);

    assertThat(RULE.check(calls.history()).violations()).isEmpty();
  }

  @Test
  void aWriterBesideAReaderIsAViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    CallRecord reader = calls.lock("READ", "k", 10, 30);
    CallRecord writer = calls.lock("WRITE", "k", 20, 40);

    RuleOutcome outcome = RULE.check(calls.history());

    assertThat(outcome.violations()).hasSize(1);
    assertThat(outcome.violations().get(0).records()).containsExactly(writer, reader);
  }

  @Test
  void aReaderEnteringBesideAWriterIsAViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.lock("WRITE", "k", 10, 30);
    calls.lock("READ", "k", 20, 25);

    assertThat(RULE.check(calls.history()).violations()).hasSize(1);
  }

  @Test
  void twoWritersAtOnceAreAViolation() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.lock("WRITE", "k", 10, 30);
    calls.lock("WRITE", "k", 29, 40);

    assertThat(RULE.check(calls.history()).violations()).hasSize(1);
  }

  @Test
  void aReaderAfterAWriterOnAnotherKeyIsLegal() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.lock("WRITE", "k1", 10, 30);
    calls.lock("READ", "k2", 15, 25);
    calls.lock("WRITE", "k2", 26, 40);

    assertThat(RULE.check(calls.history()).violations()).isEmpty();
  }

  @Test
  void aReaderThatEntersWhereTheWriterLeftIsLegal() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.lock("WRITE", "k", 10, 20);
    calls.lock("READ", "k", 20, 30);
    calls.lock("WRITE", "k", 30, 40);

    assertThat(RULE.check(calls.history()).violations()).isEmpty();
  }

  @Test
  void aKilledWritersHoldLastsUntilTheDeclaredInstant() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.unended("WRITE", "k", 5, 10, 1);
    calls.lock("READ", "k", 50, 60);

    assertThat(RULE.check(calls.history()).violations()).hasSize(1);
    assertThat(RULE.unendedHeldUntil(40).check(calls.history()).violations()).isEmpty();
  }
}
