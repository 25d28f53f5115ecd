package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client that calls one instance, then the next, on a bulkhead of one without waiting: the two
 * engines share the real Redis, as two instances of a service do. With releases awaited (the
 * default) a call returns once its permit is free in Redis, so the next call, on the other engine,
 * is never refused; with posted releases it may be (that is the documented trade).
 */
@ExtendWith(RedisExtension.class)
@Timeout(120)
class SequentialCallersAcrossEnginesTest {

  private static final int CALLS = 2_000;

  @Test
  void aCallAfterAnotherEndedIsNeverRefusedWhicheverEngineItGoesTo(TestRedis test)
      throws Exception {
    try (BulwarkEngine one = start(test);
        BulwarkEngine two = start(test)) {
      BulkheadHandle first = one.programmatic().bulkhead("single");
      BulkheadHandle second = two.programmatic().bulkhead("single");
      int refused = 0;
      for (int i = 0; i < CALLS; i++) {
        for (BulkheadHandle instance : new BulkheadHandle[] {first, second}) {
          try {
            instance.call(() -> "done");
          } catch (BulkheadFullException e) {
            refused++;
          }
        }
      }
      assertThat(refused).as("calls refused out of %d, one after the other", 2 * CALLS).isZero();
    }
  }

  private static BulwarkEngine start(TestRedis test) {
    return BulwarkEngine.start(
        ConfigLookup.of(
            Map.of(
                "bulwark.store",
                "redis",
                "bulwark.redis.url",
                test.url(),
                "bulwark.redis.key-prefix",
                test.prefix(),
                "bulwark.bulkhead.single.value",
                "1")));
  }
}
