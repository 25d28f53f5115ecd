package dev.bulwark.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The startup table's short form picks the largest unit that keeps the duration whole. */
class DurationsTest {

  @Test
  void theShortFormIsInTheLargestWholeUnit() {
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0");
    assertThat(Durations.format(Duration.ofNanos(500))).isEqualTo("500ns");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2m");
    assertThat(Durations.format(Duration.ofHours(3))).isEqualTo("180m");
  }
}
