package dev.bulwark.redis;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bulkhead permits in Redis: one script call per operation. An acquire or poll whose reply is lost
 * is followed by a best-effort give-up (a cancel that also releases a grant), see {@link
 * RedisCalls#runOrGiveUp}. With {@code wait-replicas} set, a grant (from acquire, poll or cancel)
 * is returned only once replicas acknowledged it.
 */
final class RedisPermits implements PermitStore {

  private final RedisCalls redis;
  private final RedisKeys keys;

  /** Each bulkhead's {@link RedisKeys.BulkheadKeys#scriptKeys()}, built once. */
  private final Map<String, List<String>> scriptKeysByName = new ConcurrentHashMap<>();

  RedisPermits(RedisCalls redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
    String member = redis.member(requestId);
    return Replies.permit(
        redis.runOrGiveUp(
            Scripts.PERMIT_ACQUIRE,
            keysOf(spec),
            List.of(
                member,
                Integer.toString(spec.limit()),
                Long.toString(spec.leaseMillis()),
                mayQueue ? "1" : "0",
                keys.prefix(),
                redis.wakeUpSecret()),
            Scripts.PERMIT_CANCEL,
            () -> cancelArgs(spec, member, true)));
  }

  @Override
  public Grant poll(PermitSpec spec, long requestId) {
    String member = redis.member(requestId);
    return Replies.permit(
        redis.runOrGiveUp(
            Scripts.PERMIT_POLL,
            keysOf(spec),
            handOverArgs(spec, member),
            Scripts.PERMIT_CANCEL,
            () -> cancelArgs(spec, member, true)));
  }

  @Override
  public Grant cancel(PermitSpec spec, long requestId) {
    return Replies.permit(
        redis.runGranting(
            Scripts.PERMIT_CANCEL, keysOf(spec), cancelArgs(spec, redis.member(requestId), false)));
  }

  @Override
  public boolean release(PermitSpec spec, long requestId) {
    return Replies.released(
        redis.run(
            Scripts.PERMIT_RELEASE, keysOf(spec), handOverArgs(spec, redis.member(requestId))));
  }

  @Override
  public BulkheadSnapshot inspect(PermitSpec spec) {
    List<?> reply = (List<?>) redis.run(Scripts.PERMIT_INSPECT, keysOf(spec), List.of());
    return new BulkheadSnapshot(
        spec.name(),
        spec.limit(),
        Replies.holders(reply, 1),
        Math.toIntExact(Replies.integer(reply.get(0))));
  }

  @Override
  public Optional<String> define(PermitSpec spec) {
    return redis.define(keys.bulkheadDefinition(spec.name()), spec.definition());
  }

  /** Poll and release: the member, and what a hand-over needs (limit, prefix). */
  private List<String> handOverArgs(PermitSpec spec, String member) {
    return List.of(member, Integer.toString(spec.limit()), keys.prefix());
  }

  /** Cancel; {@code releaseGrant} for a caller that gives the request up whatever it became. */
  private List<String> cancelArgs(PermitSpec spec, String member, boolean releaseGrant) {
    return List.of(
        member,
        Integer.toString(spec.limit()),
        keys.prefix(),
        releaseGrant ? "1" : "0",
        Long.toString(spec.leaseMillis()));
  }

  private List<String> keysOf(PermitSpec spec) {
    return scriptKeysByName.computeIfAbsent(spec.name(), name -> keys.bulkhead(name).scriptKeys());
  }
}
