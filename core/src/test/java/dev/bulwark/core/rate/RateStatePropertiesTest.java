package dev.bulwark.core.rate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Randomised sequences of calls, with and without a clock that steps back, against what must hold
 * for any sequence. The seed is printed; {@code -Dbulwark-test.seed=…} replays one.
 */
class RateStatePropertiesTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long START = 1_700_000_000_000L * MS;

  private static long seed() {
    String fixed = System.getProperty("bulwark-test.seed");
    return fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
  }

  @ParameterizedTest
  @EnumSource(RateLimitType.class)
  void aMonotonicClockNeverLetsMoreThanTheLimitThrough(RateLimitType type) {
    long seed = seed();
    System.out.println("RateStatePropertiesTest " + type + " monotonic seed " + seed);
    Random random = new Random(seed);
    for (int run = 0; run < 20; run++) {
      RateSpec spec = randomSpec(random, type);
      List<Long> slots = new ArrayList<>();
      RateState state = RateState.initial(type);
      long now = START + random.nextInt(1000) * MS;
      for (int i = 0; i < 500; i++) {
        now += (long) (random.nextDouble() * random.nextDouble() * spec.windowNanos() / 2);
        long maxWait = random.nextInt(3) == 0 ? random.nextLong(2 * spec.windowNanos()) : 0;
        ReservationOutcome outcome = state.reserve(spec, now, maxWait);
        checkDecision(outcome.decision(), maxWait, seed);
        checkNeverBack(state, outcome.next(), seed);
        if (outcome.decision().granted()) {
          slots.add(now + outcome.decision().delayNanos());
        }
        state = outcome.next();
      }
      slots.sort(null);
      if (type == RateLimitType.ROLLING) {
        for (int i = 0; i + spec.permits() < slots.size(); i++) {
          assertThat(slots.get(i + spec.permits()) - slots.get(i))
              .as("seed %s: %s grants within one window", seed, spec.permits() + 1)
              .isGreaterThanOrEqualTo(spec.windowNanos());
        }
      } else if (type == RateLimitType.FIXED) {
        Map<Long, Integer> perWindow = new HashMap<>();
        for (long slot : slots) {
          perWindow.merge(Math.floorDiv(slot, spec.windowNanos()), 1, Integer::sum);
        }
        assertThat(perWindow.values())
            .as("seed %s: grants per window", seed)
            .allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(spec.permits()));
      } else {
        // GCRA: after a burst of permits, one slot per interval: any permits + 1 slots span at
        // least one interval (less the rounding of the delays to whole ticks)
        for (int i = 0; i + spec.permits() < slots.size(); i++) {
          assertThat(slots.get(i + spec.permits()) - slots.get(i))
              .as("seed %s: %s grants within one interval", seed, spec.permits() + 1)
              .isGreaterThanOrEqualTo(spec.windowNanos() / spec.permits() - 1);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(RateLimitType.class)
  void aClockThatStepsBackNeverMovesAStateBackwards(RateLimitType type) {
    long seed = seed();
    System.out.println("RateStatePropertiesTest " + type + " steps back seed " + seed);
    Random random = new Random(seed);
    for (int run = 0; run < 20; run++) {
      RateSpec spec = randomSpec(random, type);
      RateState state = RateState.initial(type);
      long now = START;
      for (int i = 0; i < 500; i++) {
        if (random.nextInt(8) == 0) {
          now -= random.nextLong(3 * spec.windowNanos());
        } else {
          now += (long) (random.nextDouble() * random.nextDouble() * spec.windowNanos() / 2);
        }
        long maxWait = random.nextInt(3) == 0 ? random.nextLong(2 * spec.windowNanos()) : 0;
        ReservationOutcome outcome = state.reserve(spec, now, maxWait);
        checkDecision(outcome.decision(), maxWait, seed);
        checkNeverBack(state, outcome.next(), seed);
        state = outcome.next();
      }
    }
  }

  private static RateSpec randomSpec(Random random, RateLimitType type) {
    int permits = 1 + random.nextInt(12);
    long window = (1 + random.nextInt(2000)) * MS + random.nextInt(1000);
    return new RateSpec("random", type, permits, window);
  }

  private static void checkDecision(RateDecision decision, long maxWait, long seed) {
    if (decision.granted()) {
      assertThat(decision.delayNanos()).as("seed %s: delay", seed).isBetween(0L, maxWait);
    } else {
      assertThat(decision.delayNanos()).as("seed %s: retry-after", seed).isGreaterThan(maxWait);
    }
  }

  private static void checkNeverBack(RateState before, RateState after, long seed) {
    if (after instanceof GcraState next) {
      GcraState previous = (GcraState) before;
      // both remainders are below permits, so the pair orders like the time it stands for
      assertThat(
              next.theoreticalArrival() > previous.theoreticalArrival()
                  || (next.theoreticalArrival() == previous.theoreticalArrival()
                      && next.remainder() >= previous.remainder()))
          .as("seed %s: TAT %s after %s", seed, next, previous)
          .isTrue();
    } else if (after instanceof FixedWindowState next) {
      assertThat(next.window())
          .as("seed %s: window", seed)
          .isGreaterThanOrEqualTo(((FixedWindowState) before).window());
    } else {
      long[] log = after.toLongs();
      assertThat(log).as("seed %s: log", seed).isSorted();
      long[] previous = before.toLongs();
      if (previous.length > 0 && log.length > 0) {
        assertThat(log[log.length - 1])
            .as("seed %s: newest grant", seed)
            .isGreaterThanOrEqualTo(previous[previous.length - 1]);
      }
    }
  }
}
