package dev.bulwark.redis;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.redis.client.SlotPipelines;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.StoreException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Keyed read-write locks in Redis: one script call per operation, all keys of a lock key in one
 * slot; a batch of operations ({@link #apply}) is one call of {@code lock_batch.lua} per lock name
 * on a single server or Sentinel, and one per slot on a Cluster, sent pipelined. An acquire or poll
 * whose reply is lost is followed by a best-effort give-up (a cancel that also releases a grant),
 * see {@link RedisCalls#runOrGiveUp}. With {@code wait-replicas} set, a grant (from acquire, poll
 * or cancel) is returned only once replicas acknowledged it.
 */
final class RedisLocks implements LockStore {

  private final RedisCalls redis;
  private final RedisKeys keys;
  private final GrantListener listener;

  /** On a Cluster, sends a batch's per-slot scripts pipelined per primary; null elsewhere. */
  private final SlotPipelines pipelines;

  /**
   * The keys of the lock key this thread used last: a release almost always follows its acquire on
   * the same thread, and so does not hash the key again.
   */
  private final ThreadLocal<LastUsed> lastUsed = new ThreadLocal<>();

  private record LastUsed(String name, String key, List<String> scriptKeys) {}

  /**
   * @param listener this JVM's listener, told of the hand-overs a batch made to this JVM's requests
   *     as soon as its reply arrives
   * @param pipelines on a Cluster (a batch's keys spread over slots); null on a single server or
   *     Sentinel, where a whole batch is one script
   */
  RedisLocks(RedisCalls redis, RedisKeys keys, GrantListener listener, SlotPipelines pipelines) {
    this.redis = redis;
    this.keys = keys;
    this.listener = listener;
    this.pipelines = pipelines;
  }

  /**
   * One script call per group of operations that can change atomically: the whole batch on a single
   * server or Sentinel, the operations of one slot on a Cluster (operations on different keys never
   * decide each other, so the groups may run in any order). On a Cluster the groups go out
   * pipelined, one round trip per primary; with {@code wait-replicas} one after another (WAIT needs
   * each script's own connection). When a group fails, every acquire and poll of the batch is given
   * up (those of the groups that answered too: nobody will hear their answers), and the failure is
   * reported.
   */
  @Override
  public List<Grant> apply(LockSpec spec, List<Operation> operations) {
    if (operations.isEmpty()) {
      return List.of();
    }
    List<Group> groups = groups(spec, operations);
    Object[] replies = new Object[groups.size()];
    StoreException failure = null;
    List<Group> mayHaveRun = new ArrayList<>();
    if (groups.size() > 1 && !redis.waitsForReplicas()) {
      List<Object> pipelined;
      try {
        pipelined = runPipelined(groups);
      } catch (StoreException e) {
        if (RedisCalls.mayHaveRun(e)) {
          giveUp(e, groups);
        }
        throw e;
      }
      // every group is judged, not only those before the first that broke: a primary that
      // answered applied its group, which is given up below when another primary failed
      for (int i = 0; i < groups.size(); i++) {
        Object reply = pipelined.get(i);
        if (reply instanceof JedisConnectionException broken) {
          StoreException lost =
              new StoreException("a lock batch on Redis failed: " + broken.getMessage(), broken);
          if (failure == null) {
            failure = lost;
          }
          if (RedisCalls.mayHaveRun(lost)) {
            mayHaveRun.add(groups.get(i));
          }
        } else if (!(reply instanceof RuntimeException)) {
          replies[i] = reply;
        }
        // an error reply (MOVED, ASK, NOSCRIPT, TRYAGAIN): it did not run, it is sent again alone
      }
    }
    for (int i = 0; i < groups.size() && failure == null; i++) {
      if (replies[i] == null) {
        Group group = groups.get(i);
        try {
          // alone, the cluster client follows a redirection and loads a script the node lacks
          replies[i] =
              redis.runBatchOrGiveUp(
                  Scripts.LOCK_BATCH,
                  group.scriptKeys(),
                  group.args(),
                  BatchCodec.grants(group.operations()),
                  group.giveUp());
        } catch (StoreException e) {
          failure = e; // a lost reply was given up already
        }
      }
    }
    if (failure != null) {
      List<Group> ran = new ArrayList<>(mayHaveRun);
      for (int i = 0; i < groups.size(); i++) {
        if (replies[i] != null) {
          ran.add(groups.get(i));
        }
      }
      giveUp(failure, ran);
      throw failure;
    }
    Grant[] answers = new Grant[operations.size()];
    for (int i = 0; i < groups.size(); i++) {
      Group group = groups.get(i);
      List<Grant> groupAnswers =
          BatchCodec.answers(replies[i], group.operations(), Replies::lock, listener);
      for (int j = 0; j < groupAnswers.size(); j++) {
        answers[group.positions().get(j)] = groupAnswers.get(j);
      }
    }
    return Arrays.asList(answers);
  }

  /**
   * The operations of a batch one script applies, with their positions in the batch, the KEYS and
   * ARGV of {@code lock_batch.lua}, and the ARGV that gives up their acquires and polls (null when
   * they have none).
   */
  /**
   * {@link #apply} pipelined, several batches in flight, where the store has a pipeline (one server
   * or Sentinel: the whole batch is one group, one script call).
   */
  @Override
  public CompletionStage<List<Grant>> applyAsync(LockSpec spec, List<Operation> operations) {
    if (pipelines != null || !redis.pipelinesBatches() || operations.isEmpty()) {
      return LockStore.super.applyAsync(spec, operations);
    }
    Group group = groups(spec, operations).get(0);
    return redis
        .runBatchAsync(
            Scripts.LOCK_BATCH,
            group.scriptKeys(),
            group.args(),
            BatchCodec.grants(group.operations()),
            group.giveUp())
        .thenApply(reply -> BatchCodec.answers(reply, operations, Replies::lock, listener));
  }

  private record Group(
      List<Integer> positions,
      List<Operation> operations,
      List<String> scriptKeys,
      List<String> args,
      List<String> giveUp) {}

  /** One group for a single server; on a Cluster, one per slot, in the order of first use. */
  private List<Group> groups(LockSpec spec, List<Operation> operations) {
    Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
    for (int i = 0; i < operations.size(); i++) {
      int slot =
          pipelines == null
              ? 0
              : JedisClusterCRC16.getSlot(keysOf(spec.name(), operations.get(i).key()).get(0));
      bySlot.computeIfAbsent(slot, s -> new ArrayList<>()).add(i);
    }
    List<Group> groups = new ArrayList<>(bySlot.size());
    for (List<Integer> positions : bySlot.values()) {
      groups.add(group(spec, operations, positions));
    }
    return groups;
  }

  private Group group(LockSpec spec, List<Operation> all, List<Integer> positions) {
    Map<String, Integer> keyNumbers = new HashMap<>();
    List<String> scriptKeys = new ArrayList<>();
    List<Operation> operations = new ArrayList<>(positions.size());
    List<String> args = batchHeader(spec);
    List<String> giveUp = null;
    for (int position : positions) {
      Operation operation = all.get(position);
      operations.add(operation);
      Integer number = keyNumbers.get(operation.key());
      if (number == null) {
        number = keyNumbers.size() + 1;
        keyNumbers.put(operation.key(), number);
        scriptKeys.addAll(keysOf(spec.name(), operation.key()));
      }
      String requestId = Long.toString(operation.requestId());
      args.add(BatchCodec.kind(operation));
      args.add(number.toString());
      args.add(
          operation.kind() == Operation.Kind.ACQUIRE
              ? (operation.mode() == LockMode.WRITE ? "W" : "R")
              : "-");
      args.add(requestId);
      if (BatchCodec.givenUpWhenLost(operation)) {
        if (giveUp == null) {
          giveUp = batchHeader(spec);
        }
        giveUp.add(BatchCodec.GIVE_UP);
        giveUp.add(number.toString());
        giveUp.add("-");
        giveUp.add(requestId);
      }
    }
    return new Group(positions, operations, scriptKeys, args, giveUp);
  }

  /** What {@code lock_batch.lua} reads before the operations. */
  private List<String> batchHeader(LockSpec spec) {
    List<String> args = new ArrayList<>();
    args.add(redis.instance());
    args.add(Long.toString(spec.leaseMillis()));
    args.add(keys.prefix());
    args.add(redis.wakeUpSecret());
    return args;
  }

  /** Gives up the acquires and polls of {@code groups}, best effort, after {@code failure}. */
  private void giveUp(StoreException failure, List<Group> groups) {
    for (Group group : groups) {
      if (group.giveUp() != null) {
        redis.giveUp(failure, Scripts.LOCK_BATCH, group.scriptKeys(), group.giveUp());
      }
    }
  }

  /**
   * Every group's script, pipelined per primary: per group its reply or failure. When every
   * pipeline's connection failed, that is thrown, so the outage gate sees it.
   *
   * @throws StoreException when every pipeline failed, or the gate fails calls fast
   */
  private List<Object> runPipelined(List<Group> groups) {
    List<SlotPipelines.Call> calls = new ArrayList<>(groups.size());
    for (Group group : groups) {
      calls.add(new SlotPipelines.Call(group.scriptKeys(), group.args()));
    }
    return redis.guarded(
        () -> {
          List<Object> replies = pipelines.run(Scripts.LOCK_BATCH, calls);
          if (replies.stream().allMatch(JedisConnectionException.class::isInstance)) {
            throw (JedisConnectionException) replies.get(0);
          }
          return replies;
        });
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
