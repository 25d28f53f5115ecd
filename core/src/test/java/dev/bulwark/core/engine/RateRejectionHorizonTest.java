package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.bulwark.RateLimitExceededException;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.SwitchableStore.RateReservation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A SMOOTH or FIXED rate limit rejects without the store until the instant the store named, and not
 * longer: over a store whose answers take 100 ms to come back, the rejections in between are this
 * JVM's own, and the first call after the store's own horizon reaches the store and is granted. A
 * horizon counted from the answer's arrival would lie a return trip too late and reject that call
 * without asking.
 */
@Timeout(30)
class RateRejectionHorizonTest {

  private static final Duration REPLY_DELAY = Duration.ofMillis(100);

  private final SwitchableStore[] store = new SwitchableStore[1];
  private BulwarkEngine engine;

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"smooth", "fixed"})
  void rejectsLocallyUntilTheStoresHorizonAndAsksTheStoreFromThen(String type) {
    engine =
        BulwarkEngine.builder(
                ConfigLookup.of(
                    Map.of(
                        "bulwark.store",
                        SwitchableStore.ID,
                        "bulwark.rate-limit.partner.value",
                        "1",
                        "bulwark.rate-limit.partner.window",
                        "1s",
                        "bulwark.rate-limit.partner.type",
                        type)))
            .stores(List.of(SwitchableStore.provider(store)))
            .start();
    RateLimiter limiter = engine.registry().rateLimiter("partner");
    store[0].rateReplyDelay = REPLY_DELAY;

    RateReservation rejection = aRejectionWithItsHorizonAhead(limiter);
    int asked = store[0].reservations.size();
    long storesHorizon = horizon(rejection);

    long called = System.nanoTime();
    RateLimitExceededException local =
        catchThrowableOfType(RateLimitExceededException.class, () -> limiter.acquire(0));
    assertThat(store[0].reservations).as("answered without the store").hasSize(asked);
    assertThat(local.getRetryAfter().toNanos())
        .as("the time left, ending no later than the store's horizon")
        .isPositive()
        .isLessThanOrEqualTo(storesHorizon - called);

    awaitPast(storesHorizon);
    assertThat(limiter.tryAcquire())
        .as("the first call after the store's horizon asks the store, which grants it")
        .isTrue();
    assertThat(store[0].reservations).hasSize(asked + 1);
    assertThat(store[0].reservations.get(asked).decision().granted()).isTrue();
  }

  /**
   * Takes the permit, then has the store reject the next call, and returns that rejection; again in
   * the next window when the rejection came less than 300 ms before its horizon, or when the next
   * call was granted (a FIXED window aligned to the epoch may end just after the permit was taken).
   */
  private RateReservation aRejectionWithItsHorizonAhead(RateLimiter limiter) {
    for (int attempt = 0; attempt < 3; attempt++) {
      int before = store[0].reservations.size();
      limiter.tryAcquire(); // the permit, when the window still has it
      if (limiter.tryAcquire()) {
        continue; // a FIXED window ended between the two calls: this took the next one's permit
      }
      // the store's last decision is the rejection: of the second call, or of the first when the
      // window was already spent (the second is then answered here, from that rejection)
      List<RateReservation> decided = List.copyOf(store[0].reservations);
      assertThat(decided).as("the store decided these calls").hasSizeGreaterThan(before);
      RateReservation rejection = decided.get(decided.size() - 1);
      assertThat(rejection.decision().granted()).isFalse();
      if (horizon(rejection) - System.nanoTime() > TimeUnit.MILLISECONDS.toNanos(300)) {
        return rejection;
      }
      awaitPast(horizon(rejection));
    }
    throw new AssertionError("no rejection came 300 ms before its horizon in three windows");
  }

  /** When the store itself grants again, on this JVM's clock (which the test store shares). */
  private static long horizon(RateReservation rejection) {
    return rejection.decidedNanos() + rejection.decision().delayNanos();
  }

  /** Waits until 2 ms past {@code instant}: an instant the store named, not a guess. */
  private static void awaitPast(long instant) {
    long until = instant + TimeUnit.MILLISECONDS.toNanos(2);
    long left;
    while ((left = until - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }
}
