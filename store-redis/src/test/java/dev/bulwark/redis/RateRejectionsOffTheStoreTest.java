package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bulwark.RateLimitExceededException;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.RateLimiter;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A SMOOTH or FIXED rate limit the store found without a permit until some instant has none before
 * it, since no reservation is ever given back: this JVM's calls that cannot wait that long are
 * rejected without asking Redis, with the time that is left, and the first call after it asks
 * again. ROLLING asks every time. Reservations are counted on their way to the real Redis store.
 */
@ExtendWith(RedisExtension.class)
@Timeout(60)
class RateRejectionsOffTheStoreTest {

  @Test
  void rejectionsUntilTheNextPermitCostRedisNothing(TestRedis test) {
    Counted counted = new Counted();
    try (BulwarkEngine engine = start(test, counted, "fixed", "1m")) {
      RateLimiter limiter = engine.registry().rateLimiter("partner");
      limiter.acquire();
      limiter.acquire();
      List<Duration> retryAfter = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        assertThatThrownBy(limiter::acquire)
            .isInstanceOfSatisfying(
                RateLimitExceededException.class, e -> retryAfter.add(e.getRetryAfter()));
      }

      assertThat(counted.reservations).as("two grants and the first rejection").hasValue(3);
      assertThat(retryAfter).allSatisfy(left -> assertThat(left).isPositive());
      assertThat(retryAfter.get(49)).isLessThanOrEqualTo(retryAfter.get(0));
      assertThat(limiter.stats().rejected()).isEqualTo(50);
    }
  }

  @Test
  void theFirstCallAfterTheHorizonAsksTheStoreAgain(TestRedis test) {
    Counted counted = new Counted();
    try (BulwarkEngine engine = start(test, counted, "smooth", "1s")) {
      RateLimiter limiter = engine.registry().rateLimiter("partner");
      limiter.acquire();
      limiter.acquire();
      assertThatThrownBy(limiter::acquire).isInstanceOf(RateLimitExceededException.class);
      int asked = counted.reservations.get();

      // SMOOTH 2 per second: the next permit comes within half a second, and is granted by Redis
      await().atMost(Duration.ofSeconds(5)).ignoreExceptions().until(() -> tryAcquire(limiter));
      assertThat(counted.reservations.get()).isGreaterThan(asked);
    }
  }

  @Test
  void aRollingLimitAsksTheStoreEveryTime(TestRedis test) {
    Counted counted = new Counted();
    try (BulwarkEngine engine = start(test, counted, "rolling", "1m")) {
      RateLimiter limiter = engine.registry().rateLimiter("partner");
      limiter.acquire();
      limiter.acquire();
      for (int i = 0; i < 5; i++) {
        assertThatThrownBy(limiter::acquire).isInstanceOf(RateLimitExceededException.class);
      }
      assertThat(counted.reservations).hasValue(7);
    }
  }

  private static boolean tryAcquire(RateLimiter limiter) {
    limiter.acquire();
    return true;
  }

  private static BulwarkEngine start(TestRedis test, Counted counted, String type, String window) {
    return BulwarkEngine.start(
        ConfigLookup.of(
            Map.of(
                "bulwark.store",
                Counted.ID,
                "bulwark.redis.url",
                test.url(),
                "bulwark.redis.key-prefix",
                test.prefix(),
                "bulwark.rate-limit.partner.value",
                "2",
                "bulwark.rate-limit.partner.window",
                window,
                "bulwark.rate-limit.partner.type",
                type)),
        List.of(counted));
  }

  /** The Redis store as the engine opens it, counting the reservations that reach it. */
  private static final class Counted implements BulwarkStoreProvider {

    static final String ID = "redis-counted";

    final AtomicInteger reservations = new AtomicInteger();

    @Override
    public String id() {
      return ID;
    }

    @Override
    public BulwarkStore open(StoreContext context) {
      BulwarkStore redis = new RedisStoreProvider().open(context);
      RateStore counting =
          new RateStore() {
            @Override
            public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
              reservations.incrementAndGet();
              return redis.rates().reserve(spec, maxWaitNanos);
            }
          };
      return ForwardingStore.withRates(redis, counting);
    }
  }
}
