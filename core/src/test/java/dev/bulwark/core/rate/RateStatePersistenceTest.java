package dev.bulwark.core.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The persistable form of each state: written, read back, and the limit goes on unchanged. */
class RateStatePersistenceTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long START = 1_000_000_000 * MS;

  @ParameterizedTest
  @EnumSource(RateLimitType.class)
  void aStateReadBackEqualsTheStateWrittenAndDecidesAlike(RateLimitType type) {
    RateSpec spec = new RateSpec("test", type, 3, 700 * MS);
    RateState state = RateState.initial(type);
    assertThat(RateState.fromLongs(type, state.toLongs())).isEqualTo(state);
    for (int i = 0; i < 40; i++) {
      long now = START + i * 90 * MS;
      state = state.reserve(spec, now, i % 4 == 0 ? 500 * MS : 0).next();

      RateState restored = RateState.fromLongs(type, state.toLongs());
      assertThat(restored).isEqualTo(state).hasSameHashCodeAs(state);
      assertThat(restored.type()).isEqualTo(type);
      // the restored state answers the next calls exactly as the original does
      List<Object> original = new ArrayList<>();
      List<Object> fromRow = new ArrayList<>();
      RateState a = state;
      RateState b = restored;
      for (int k = 1; k <= 5; k++) {
        ReservationOutcome outcomeA = a.reserve(spec, now + k * 40 * MS, 300 * MS);
        ReservationOutcome outcomeB = b.reserve(spec, now + k * 40 * MS, 300 * MS);
        original.add(outcomeA.decision());
        fromRow.add(outcomeB.decision());
        a = outcomeA.next();
        b = outcomeB.next();
      }
      assertThat(fromRow).isEqualTo(original);
      assertThat(b).isEqualTo(a);
    }
  }

  @Test
  void theFormsAreCompact() {
    RateSpec smooth = new RateSpec("test", RateLimitType.SMOOTH, 3, 1000 * MS);
    assertThat(RateState.initial(RateLimitType.SMOOTH).reserve(smooth, START, 0).next().toLongs())
        .containsExactly(START + 333_333_333, 1);
    RateSpec fixed = new RateSpec("test", RateLimitType.FIXED, 3, 1000 * MS);
    assertThat(RateState.initial(RateLimitType.FIXED).reserve(fixed, START, 0).next().toLongs())
        .containsExactly(START / (1000 * MS), 1);
    RateSpec rolling = new RateSpec("test", RateLimitType.ROLLING, 3, 1000 * MS);
    RateState log = RateState.initial(RateLimitType.ROLLING);
    for (int i = 0; i < 4; i++) {
      log = log.reserve(rolling, START + i * MS, 2000 * MS).next();
    }
    assertThat(log.toLongs()).containsExactly(START, START + MS, START + 2 * MS, START + 1000 * MS);
    assertThat(RateState.initial(RateLimitType.ROLLING).toLongs()).isEmpty();
  }

  @Test
  void aFormThatIsNoStateIsRefusedNamingWhatIsWrong() {
    assertThatThrownBy(() -> RateState.fromLongs(RateLimitType.SMOOTH, new long[] {1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SMOOTH");
    assertThatThrownBy(() -> RateState.fromLongs(RateLimitType.SMOOTH, new long[] {1, -1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("remainder");
    assertThatThrownBy(() -> RateState.fromLongs(RateLimitType.FIXED, new long[] {1, 2, 3}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FIXED");
    assertThatThrownBy(() -> RateState.fromLongs(RateLimitType.FIXED, new long[] {1, -2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("count");
    assertThatThrownBy(() -> RateState.fromLongs(RateLimitType.ROLLING, new long[] {5, 4}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ascending");
  }
}
