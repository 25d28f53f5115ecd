package dev.bulwark.redis;

import dev.bulwark.redis.client.RedisOutageGate;
import java.time.Duration;

/**
 * One "JVM" of the Redis store whose permit and lock calls run the store's own classes and scripts
 * under a {@link ControlledClock}: expiry and token arithmetic become exact. It has no wake-up
 * subscription; tests read hand-overs from the keys.
 */
final class ClockedJvm {

  private final RedisCalls calls;
  private final RedisPermits permits;
  private final RedisLocks locks;

  /**
   * @param instance 16 hex digits, as a store's instance id
   */
  ClockedJvm(TestRedis test, ControlledClock clock, String instance) {
    this.calls =
        new RedisCalls(
            clock::run,
            new RedisOutageGate("clocked " + instance, Duration.ofSeconds(1), () -> {}),
            instance,
            "5ec2e7".repeat(5) + "00");
    this.permits = new RedisPermits(calls, test.keys(), (requestId, token) -> {});
    this.locks = new RedisLocks(calls, test.keys(), (requestId, token) -> {}, null);
  }

  RedisPermits permits() {
    return permits;
  }

  RedisLocks locks() {
    return locks;
  }

  String member(long requestId) {
    return calls.member(requestId);
  }
}
