package dev.bulwark.redis;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import java.util.List;
import java.util.Optional;

/**
 * Keyed read-write locks in Redis: one script call per operation, all keys of a lock key in one
 * slot. An acquire or poll whose reply is lost is followed by a best-effort give-up (a cancel that
 * also releases a grant), see {@link RedisCalls#runOrGiveUp}. With {@code wait-replicas} set, a
 * grant (from acquire, poll or cancel) is returned only once replicas acknowledged it.
 */
final class RedisLocks implements LockStore {

  private final RedisCalls redis;
  private final RedisKeys keys;

  /**
   * The keys of the lock key this thread used last: a release almost always follows its acquire on
   * the same thread, and so does not hash the key again.
   */
  private final ThreadLocal<LastUsed> lastUsed = new ThreadLocal<>();

  private record LastUsed(String name, String key, List<String> scriptKeys) {}

  RedisLocks(RedisCalls redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public Grant acquire(LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
    String member = redis.member(requestId);
    return Replies.lock(
        redis.runOrGiveUp(
            Scripts.LOCK_ACQUIRE,
            keysOf(spec.name(), key),
            List.of(
                member,
                mode == LockMode.WRITE ? "W" : "R",
                Long.toString(spec.leaseMillis()),
                mayQueue ? "1" : "0",
                keys.prefix(),
                redis.wakeUpSecret()),
            Scripts.LOCK_CANCEL,
            () -> cancelArgs(spec, member, true)));
  }

  @Override
  public Grant poll(LockSpec spec, String key, long requestId) {
    String member = redis.member(requestId);
    return Replies.lock(
        redis.runOrGiveUp(
            Scripts.LOCK_POLL,
            keysOf(spec.name(), key),
            handOverArgs(member),
            Scripts.LOCK_CANCEL,
            () -> cancelArgs(spec, member, true)));
  }

  @Override
  public Grant cancel(LockSpec spec, String key, long requestId) {
    return Replies.lock(
        redis.runGranting(
            Scripts.LOCK_CANCEL,
            keysOf(spec.name(), key),
            cancelArgs(spec, redis.member(requestId), false)));
  }

  @Override
  public LockKeySnapshot inspect(LockSpec spec, String key) {
    List<?> reply =
        (List<?>)
            redis.run(Scripts.LOCK_INSPECT, keys.lock(spec.name(), key).scriptKeys(), List.of());
    String writer = Replies.text(reply.get(1));
    return new LockKeySnapshot(
        spec.name(),
        key,
        writer.isEmpty()
            ? Optional.empty()
            : Optional.of(
                Replies.holder(writer, Replies.text(reply.get(2)), Replies.text(reply.get(3)))),
        Replies.holders(reply, 4),
        Math.toIntExact(Replies.integer(reply.get(0))));
  }

  @Override
  public boolean release(LockSpec spec, String key, long requestId) {
    return Replies.released(
        redis.run(
            Scripts.LOCK_RELEASE, keysOf(spec.name(), key), handOverArgs(redis.member(requestId))));
  }

  /** Poll and release: the member, and the prefix for wake-ups. */
  private List<String> handOverArgs(String member) {
    return List.of(member, keys.prefix());
  }

  /** Cancel; {@code releaseGrant} for a caller that gives the request up whatever it became. */
  private List<String> cancelArgs(LockSpec spec, String member, boolean releaseGrant) {
    return List.of(
        member, keys.prefix(), releaseGrant ? "1" : "0", Long.toString(spec.leaseMillis()));
  }

  private List<String> keysOf(String name, String key) {
    LastUsed last = lastUsed.get();
    if (last == null || !last.key().equals(key) || !last.name().equals(name)) {
      last = new LastUsed(name, key, keys.lock(name, key).scriptKeys());
      lastUsed.set(last);
    }
    return last.scriptKeys();
  }
}
