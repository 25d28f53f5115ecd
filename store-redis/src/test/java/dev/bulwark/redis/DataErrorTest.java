package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.StoreException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A reply error from a reachable Redis (here WRONGTYPE on one limit's key) is that call's failure:
 * it must not put the whole store into the "unreachable" state, where every other limit fails fast
 * until the reconnect interval passes.
 */
@ExtendWith(RedisExtension.class)
class DataErrorTest {

  @Test
  void aWrongTypeOnOneLimitsKeyDoesNotMarkRedisUnreachableForTheOthers(TestRedis test) {
    RecordingStore store = test.open(Map.of("bulwark.redis.reconnect-interval", "30s"));
    PermitSpec broken = new PermitSpec("broken", 1, 10_000);
    test.redis().set(test.prefix() + "{b:broken}:holders", "not a sorted set");

    assertThatThrownBy(() -> store.store().permits().acquire(broken, 1, false))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("WRONGTYPE");

    // Redis answers; another bulkhead and a rate limit must still work.
    assertThat(store.store().permits().acquire(new PermitSpec("healthy", 1, 10_000), 2, false))
        .isEqualTo(Grant.GRANTED);
    assertThat(
            store
                .store()
                .rates()
                .reserve(new RateSpec("api", RateLimitType.SMOOTH, 10, 1_000_000_000L), 0)
                .granted())
        .isTrue();
  }
}
