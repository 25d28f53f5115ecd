package dev.bulwark.redis;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bulkhead permits in Redis: one script call per operation, or per batch of operations ({@link
 * #apply}: {@code permit_batch.lua} applies them one by one with the steps the single scripts use).
 * An acquire or poll whose reply is lost is followed by a best-effort give-up (a cancel that also
 * releases a grant), see {@link RedisCalls#runOrGiveUp}. With {@code wait-replicas} set, a grant
 * (from acquire, poll or cancel) is returned only once replicas acknowledged it.
 */
final class RedisPermits implements PermitStore {

  private final RedisCalls redis;
  private final RedisKeys keys;
  private final GrantListener listener;

  /** Each bulkhead's {@link RedisKeys.BulkheadKeys#scriptKeys()}, built once. */
  private final Map<String, List<String>> scriptKeysByName = new ConcurrentHashMap<>();

  /**
   * @param listener this JVM's listener, told of the hand-overs a batch made to this JVM's requests
   *     as soon as its reply arrives
   */
  RedisPermits(RedisCalls redis, RedisKeys keys, GrantListener listener) {
    this.redis = redis;
    this.keys = keys;
    this.listener = listener;
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

  /**
   * One script call for the whole batch, whatever its size (a batch of one too: the same round trip
   * as the single script, and its reply tells a hand-over to this JVM's next waiter). When its
   * reply is lost, every acquire and poll of it is given up in one more call of the same script,
   * see {@link RedisCalls#runBatchOrGiveUp}.
   */
  @Override
  public List<Grant> apply(PermitSpec spec, List<Operation> operations) {
    if (operations.isEmpty()) {
      return List.of();
    }
    Batch batch = batch(spec, operations);
    Object reply =
        redis.runBatchOrGiveUp(
            Scripts.PERMIT_BATCH,
            keysOf(spec),
            batch.args(),
            BatchCodec.grants(operations),
            batch.giveUp());
    return BatchCodec.answers(reply, operations, Replies::permit, listener);
  }

  /** {@link #apply} pipelined, several batches in flight, where the store has a pipeline. */
  @Override
  public CompletionStage<List<Grant>> applyAsync(PermitSpec spec, List<Operation> operations) {
    if (operations.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    Batch batch = batch(spec, operations);
    return redis
        .runBatchAsync(
            Scripts.PERMIT_BATCH,
            keysOf(spec),
            batch.args(),
            BatchCodec.grants(operations),
            batch.giveUp())
        .thenApply(reply -> BatchCodec.answers(reply, operations, Replies::permit, listener));
  }

  /** A batch's arguments, and those that give up its acquires and polls (null: none). */
  private record Batch(List<String> args, List<String> giveUp) {}

  private Batch batch(PermitSpec spec, List<Operation> operations) {
    List<String> args = batchHeader(spec);
    List<String> giveUp = null;
    for (Operation operation : operations) {
      String requestId = Long.toString(operation.requestId());
      args.add(BatchCodec.kind(operation));
      args.add(requestId);
      if (BatchCodec.givenUpWhenLost(operation)) {
        if (giveUp == null) {
          giveUp = batchHeader(spec);
        }
        giveUp.add(BatchCodec.GIVE_UP);
        giveUp.add(requestId);
      }
    }
    return new Batch(args, giveUp);
  }

  /** What {@code permit_batch.lua} reads before the operations. */
  private List<String> batchHeader(PermitSpec spec) {
    List<String> args = new ArrayList<>();
    args.add(redis.instance());
    args.add(Integer.toString(spec.limit()));
    args.add(Long.toString(spec.leaseMillis()));
    args.add(keys.prefix());
    args.add(redis.wakeUpSecret());
    return args;
  }

  @Override
  public BulkheadSnapshot inspect(PermitSpec spec) {
    List<?> reply =
        (List<?>)
            redis.run(
                Scripts.PERMIT_INSPECT,
                keysOf(spec),
                List.of(Integer.toString(BulkheadSnapshot.WAITING_LISTED)));
    int holdersFrom = 2 + 3 * Math.toIntExact(Replies.integer(reply.get(1)));
    return new BulkheadSnapshot(
        spec.name(),
        spec.limit(),
        Replies.holders(reply, holdersFrom),
        Math.toIntExact(Replies.integer(reply.get(0))),
        Replies.holders(reply.subList(0, holdersFrom), 2));
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
