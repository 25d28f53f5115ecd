package dev.bulwark.it.cluster.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The history file and the checker as a whole: the rules are tested one by one beside it. */
class HistoryTest {

  @TempDir Path dir;

  @Test
  void aHistoryReadsBackAsItWasWritten() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.write("k", 1, 2, 3, 42);
    calls.unended("BULKHEAD", "-", 4, 5, 0);
    calls.rejected("BULKHEAD", 6, 7);
    History written =
        new History(calls.calls(), Map.of("w0", List.of(new long[] {10, 20}, new long[] {30, 40})));
    Path file = dir.resolve("run.history.tsv");

    written.write(file);
    History read = History.read(file);

    assertThat(read.calls()).isEqualTo(calls.calls());
    assertThat(read.stalledDuring("w0", 15, 16)).isTrue();
    assertThat(read.stalledDuring("w0", 20, 30)).as("between two stalls").isFalse();
    assertThat(read.stalledDuring("w0", 0, 10)).as("touching the first").isFalse();
    assertThat(read.stalledDuring("w0", 35, 100)).isTrue();
    assertThat(read.stalledDuring("w1", 0, 100)).isFalse();
  }

  @Test
  void aBrokenRuleFailsNamingTheFileTheRuleAndTheRecords() {
    HandMadeCalls calls = new HandMadeCalls();
    calls.bulkhead(10, 30);
    calls.bulkhead(20, 40);
    Path file = dir.resolve("broken.history.tsv");
    HistoryChecker checker =
        HistoryChecker.of(CapacityRule.atMost(1), LockExclusionRule.writersAlone());

    Verdict verdict = checker.check(calls.history());

    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.summary())
        .contains("BROKEN 1×: at most 1 BULKHEAD")
        .contains("held: a writer");
    assertThatThrownBy(() -> HistoryChecker.assertPassed(verdict, file))
        .hasMessageContaining("breaks 1 of 2 rules")
        .hasMessageContaining(file.toAbsolutePath().toString())
        .hasMessageContaining("2 holders at 20")
        .hasMessageContaining(calls.calls().get(1).toString());
  }

  /**
   * A hundred thousand records, as a long run writes: every rule over all of them, exactly — the
   * overshoots planted are all found, and no others.
   */
  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void everyRuleChecksAHundredThousandRecordsExactly() {
    HandMadeCalls calls = new HandMadeCalls();
    long us = 1_000;
    // a bulkhead of 5 in turns of 5 holders, 20 000 turns; every 1000th turn one too many
    int planted = 0;
    for (int turn = 0; turn < 20_000; turn++) {
      long at = turn * 100 * us;
      int holders = turn % 1000 == 999 ? 6 : 5;
      planted += holders - 5;
      for (int i = 0; i < holders; i++) {
        calls.granted("w" + i, "BULKHEAD", "-", at - 50 * us, at + i, at + 90 * us, at + 95 * us);
      }
    }
    // writers one after another on 16 keys, tokens growing
    for (int i = 0; i < 16_000; i++) {
      long at = i * 100 * us;
      calls.write("k" + (i % 16), at - 10 * us, at, at + 50 * us, i + 1);
    }
    // rate grants at half of 100/s, with five bursts of 11 beside them on a burst of 10
    int bursts = 0;
    for (int i = 0; i < 20_000; i++) {
      long at = i * 20_000 * us;
      calls.rate(at - 100 * us, at);
      if (i % 4000 == 2000) {
        bursts++;
        for (int extra = 0; extra < 11; extra++) {
          calls.rate(at + 10_000 * us, at + 10_100 * us);
        }
      }
    }
    History history = calls.history();
    assertThat(history.calls()).hasSizeGreaterThan(100_000);

    Verdict verdict =
        HistoryChecker.of(
                CapacityRule.atMost(5),
                LockExclusionRule.writersAlone(),
                FencingRule.tokensGrowPerKey(),
                FifoRule.within(
                    java.time.Duration.ofMillis(5),
                    java.time.Duration.ofMillis(3),
                    java.time.Duration.ofMillis(3),
                    0.01),
                RateRule.atMost(10, 100))
            .check(history);

    assertThat(verdict.outcomes().get(0).violations()).hasSize(planted);
    assertThat(verdict.outcomes().get(1).violations()).isEmpty();
    assertThat(verdict.outcomes().get(2).violations()).isEmpty();
    assertThat(verdict.outcomes().get(3).violations()).isEmpty();
    assertThat(verdict.outcomes().get(4).violations()).hasSize(bursts);
  }
}
