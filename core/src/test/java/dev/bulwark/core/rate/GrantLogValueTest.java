package dev.bulwark.core.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A grant log is a value: equal by its times, whatever buffer it is a range of. */
class GrantLogValueTest {

  @Test
  void logsWithTheSameTimesAreEqualAndHashAlikeWhateverTheirBuffer() {
    GrantLog built = GrantLog.of(new long[] {0, 5}).append(7).withoutOldest(1);
    GrantLog copied = GrantLog.of(new long[] {5, 7});
    assertThat(built.sharesStorageWith(copied)).isFalse();
    assertThat(built).isEqualTo(copied).hasSameHashCodeAs(copied);
    assertThat(built).isNotEqualTo(GrantLog.of(new long[] {5, 8}));
    assertThat(built.hashCode()).isNotEqualTo(GrantLog.of(new long[] {5, 8}).hashCode());
    assertThat(built).isNotEqualTo(GrantLog.of(new long[] {5}));
    assertThat(built).isNotEqualTo("[5, 7]");
    assertThat(GrantLog.EMPTY.hashCode()).isEqualTo(GrantLog.of(new long[0]).hashCode());
  }

  @Test
  void aLogPrintsItsTimesOrItsEndsWhenLong() {
    assertThat(GrantLog.of(new long[] {1, 2, 3})).hasToString("[1, 2, 3]");
    assertThat(GrantLog.of(new long[] {1, 2, 3, 4, 5, 6, 7, 8}))
        .hasToString("[1, 2, 3, 4, 5, 6, 7, 8]");
    assertThat(GrantLog.of(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9}))
        .hasToString("[1 … 9 (9 grants)]");
  }

  @Test
  void readingOutsideTheLogFails() {
    GrantLog log = GrantLog.of(new long[] {1, 2});
    assertThat(log.get(1)).isEqualTo(2);
    assertThatThrownBy(() -> log.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> log.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
