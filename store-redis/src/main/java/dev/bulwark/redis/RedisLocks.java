package dev.bulwark.redis;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import java.util.List;

/**
 * Keyed read-write locks in Redis: one script call per operation, all keys of a lock key in one
 * slot.
 */
final class RedisLocks implements LockStore {

  private final RedisCalls redis;
  private final RedisKeys keys;

  RedisLocks(RedisCalls redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public Grant acquire(LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
    return Replies.grant(
        redis.run(
            Scripts.LOCK_ACQUIRE,
            keys.lock(spec.name(), key),
            List.of(
                redis.member(requestId),
                mode == LockMode.WRITE ? "W" : "R",
                Long.toString(spec.leaseMillis()),
                mayQueue ? "1" : "0",
                keys.prefix())));
  }

  @Override
  public Grant poll(LockSpec spec, String key, long requestId) {
    return Replies.grant(
        redis.run(
            Scripts.LOCK_POLL,
            keys.lock(spec.name(), key),
            List.of(redis.member(requestId), keys.prefix())));
  }

  @Override
  public Grant cancel(LockSpec spec, String key, long requestId) {
    return Replies.grant(
        redis.run(
            Scripts.LOCK_CANCEL,
            keys.lock(spec.name(), key),
            List.of(redis.member(requestId), keys.prefix())));
  }

  @Override
  public void release(LockSpec spec, String key, long requestId) {
    redis.run(
        Scripts.LOCK_RELEASE,
        keys.lock(spec.name(), key),
        List.of(redis.member(requestId), keys.prefix()));
  }
}
