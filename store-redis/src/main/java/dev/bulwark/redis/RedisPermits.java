package dev.bulwark.redis;

import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Bulkhead permits in Redis: one script call per operation. */
final class RedisPermits implements PermitStore {

  private final RedisCalls redis;
  private final RedisKeys keys;
  private final Map<String, List<String>> keysByName = new ConcurrentHashMap<>();

  RedisPermits(RedisCalls redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
    return Replies.grant(
        redis.runGranting(
            Scripts.PERMIT_ACQUIRE,
            keysOf(spec),
            List.of(
                redis.member(requestId),
                Integer.toString(spec.limit()),
                Long.toString(spec.leaseMillis()),
                mayQueue ? "1" : "0",
                keys.prefix())));
  }

  @Override
  public Grant poll(PermitSpec spec, long requestId) {
    return Replies.grant(onHeldOrQueued(Scripts.PERMIT_POLL, spec, requestId));
  }

  @Override
  public Grant cancel(PermitSpec spec, long requestId) {
    return Replies.grant(onHeldOrQueued(Scripts.PERMIT_CANCEL, spec, requestId));
  }

  @Override
  public void release(PermitSpec spec, long requestId) {
    onHeldOrQueued(Scripts.PERMIT_RELEASE, spec, requestId);
  }

  @Override
  public Optional<String> define(PermitSpec spec) {
    return redis.define(keys.bulkheadDefinition(spec.name()), spec.definition());
  }

  /** Poll, cancel and release: one request, and what a hand-over needs (limit, prefix). */
  private Object onHeldOrQueued(LuaScript script, PermitSpec spec, long requestId) {
    return redis.runGranting(
        script,
        keysOf(spec),
        List.of(redis.member(requestId), Integer.toString(spec.limit()), keys.prefix()));
  }

  /** The bulkhead's key family; the first three are what the permit scripts use. */
  private List<String> keysOf(PermitSpec spec) {
    return keysByName.computeIfAbsent(spec.name(), name -> keys.bulkhead(name).subList(0, 3));
  }
}
