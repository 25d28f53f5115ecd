package dev.bulwark.redis;

import dev.bulwark.LockMode;
import dev.bulwark.redis.client.LuaScript;
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

  /**
   * The keys of the lock key this thread used last: a release almost always follows its acquire on
   * the same thread, and so does not hash the key again.
   */
  private final ThreadLocal<LockKeys> lastUsed = new ThreadLocal<>();

  private record LockKeys(String name, String key, List<String> keys) {}

  RedisLocks(RedisCalls redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public Grant acquire(LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
    return Replies.grant(
        redis.runGranting(
            Scripts.LOCK_ACQUIRE,
            keysOf(spec.name(), key),
            List.of(
                redis.member(requestId),
                mode == LockMode.WRITE ? "W" : "R",
                Long.toString(spec.leaseMillis()),
                mayQueue ? "1" : "0",
                keys.prefix())));
  }

  @Override
  public Grant poll(LockSpec spec, String key, long requestId) {
    return Replies.grant(onHeldOrQueued(Scripts.LOCK_POLL, spec, key, requestId));
  }

  @Override
  public Grant cancel(LockSpec spec, String key, long requestId) {
    return Replies.grant(onHeldOrQueued(Scripts.LOCK_CANCEL, spec, key, requestId));
  }

  @Override
  public void release(LockSpec spec, String key, long requestId) {
    onHeldOrQueued(Scripts.LOCK_RELEASE, spec, key, requestId);
  }

  /** Poll, cancel and release: one request of one key, and the prefix for wake-ups. */
  private Object onHeldOrQueued(LuaScript script, LockSpec spec, String key, long requestId) {
    return redis.runGranting(
        script, keysOf(spec.name(), key), List.of(redis.member(requestId), keys.prefix()));
  }

  private List<String> keysOf(String name, String key) {
    LockKeys last = lastUsed.get();
    if (last == null || !last.key().equals(key) || !last.name().equals(name)) {
      last = new LockKeys(name, key, keys.lock(name, key));
      lastUsed.set(last);
    }
    return last.keys();
  }
}
