package dev.bulwark.redis;

import dev.bulwark.redis.client.SlotPipelines;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PartialRenewalException;
import dev.bulwark.spi.StoreException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Renews a batch of leases with as few script calls as the topology allows: one per chunk on a
 * single server; on a Cluster one per slot (a script may touch one slot only), sent as one pipeline
 * per primary, so a tick costs one round trip per primary however many keys are held. When some
 * batches fail and others do not, the failure names the leases of the failed ones, so they are
 * retried at the next tick while the others count as renewed.
 */
final class LeaseRenewal {

  /** Bounds how long one renewal script blocks the server. */
  private static final int CHUNK = 256;

  private final RedisCalls redis;
  private final RedisKeys keys;

  /** Whether a script renews the leases of one slot only (a Cluster). */
  private final boolean perSlot;

  /** On a Cluster, sends the per-slot scripts pipelined per primary; null elsewhere. */
  private final SlotPipelines pipelines;

  /** On a Cluster: batches per slot, pipelined per primary. */
  LeaseRenewal(RedisCalls redis, RedisKeys keys, SlotPipelines pipelines) {
    this(redis, keys, true, pipelines);
  }

  /**
   * @param perSlot batches per slot, sent one after another (a test's view of a Cluster's batches
   *     on one server), or per chunk
   */
  LeaseRenewal(RedisCalls redis, RedisKeys keys, boolean perSlot) {
    this(redis, keys, perSlot, null);
  }

  private LeaseRenewal(RedisCalls redis, RedisKeys keys, boolean perSlot, SlotPipelines pipelines) {
    this.redis = redis;
    this.keys = keys;
    this.perSlot = perSlot;
    this.pipelines = pipelines;
  }

  List<Lease> renew(List<Lease> leases) {
    Map<String, List<Lease>> batches = new LinkedHashMap<>();
    for (Lease lease : leases) {
      String batch = perSlot ? slotOf(lease) : "";
      List<Lease> chunk = batches.computeIfAbsent(batch, b -> new ArrayList<>());
      chunk.add(lease);
      if (chunk.size() == CHUNK) {
        batches.put(batch + "#" + batches.size(), batches.remove(batch));
      }
    }
    List<List<Lease>> all = new ArrayList<>(batches.values());
    List<Object> pipelined = pipelines != null ? runPipelined(all) : null;
    List<Lease> lost = new ArrayList<>();
    List<Lease> notRenewed = new ArrayList<>();
    StoreException failure = null;
    for (int i = 0; i < all.size(); i++) {
      List<Lease> batch = all.get(i);
      try {
        Object reply = pipelined == null ? null : pipelined.get(i);
        if (reply instanceof JedisConnectionException broken) {
          throw new StoreException(
              "renewing leases on Redis failed: " + broken.getMessage(), broken);
        }
        // on one server, or sent again alone: the cluster client follows a redirection (a slot
        // that moved) and loads a script the node lacks
        lost.addAll(
            reply instanceof List<?> positions ? lostOf(batch, positions) : renewBatch(batch));
      } catch (StoreException e) {
        notRenewed.addAll(batch);
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure == null) {
      return lost;
    }
    if (notRenewed.size() == leases.size()) {
      throw failure;
    }
    // the leases of the failed batches must be retried at once, not after another third of a lease
    throw new PartialRenewalException(
        notRenewed.size()
            + " of "
            + leases.size()
            + " leases were not renewed: "
            + failure.getMessage(),
        failure,
        lost,
        notRenewed);
  }

  private List<Lease> renewBatch(List<Lease> batch) {
    List<String> scriptKeys = new ArrayList<>(batch.size() * 4);
    List<String> args = new ArrayList<>(batch.size() * 2);
    for (Lease lease : batch) {
      scriptKeys.addAll(renewalKeys(lease));
      args.add(redis.member(lease.requestId()));
      args.add(Long.toString(lease.leaseMillis()));
    }
    return lostOf(batch, (List<?>) redis.run(Scripts.RENEW, scriptKeys, args));
  }

  /**
   * Every batch's script, pipelined per primary; per batch its reply or failure. When every
   * pipeline's connection failed, that is thrown, so the outage gate sees it.
   */
  private List<Object> runPipelined(List<List<Lease>> batches) {
    List<SlotPipelines.Call> calls = new ArrayList<>(batches.size());
    for (List<Lease> batch : batches) {
      List<String> scriptKeys = new ArrayList<>(batch.size() * 4);
      List<String> args = new ArrayList<>(batch.size() * 2);
      for (Lease lease : batch) {
        scriptKeys.addAll(renewalKeys(lease));
        args.add(redis.member(lease.requestId()));
        args.add(Long.toString(lease.leaseMillis()));
      }
      calls.add(new SlotPipelines.Call(scriptKeys, args));
    }
    try {
      return redis.guarded(
          () -> {
            List<Object> replies = pipelines.run(Scripts.RENEW, calls);
            if (!replies.isEmpty()
                && replies.stream().allMatch(JedisConnectionException.class::isInstance)) {
              throw (JedisConnectionException) replies.get(0);
            }
            return replies;
          });
    } catch (StoreException e) {
      List<Object> failed = new ArrayList<>(batches.size());
      batches.forEach(b -> failed.add(new JedisConnectionException(e.getMessage(), e)));
      return failed;
    }
  }

  private static List<Lease> lostOf(List<Lease> batch, List<?> positions) {
    List<Lease> lost = new ArrayList<>();
    for (Object position : positions) {
      lost.add(batch.get(((Long) position).intValue() - 1));
    }
    return lost;
  }

  /** Holders (or readers), queue, waiters, state: the order the renewal script reads. */
  private List<String> renewalKeys(Lease lease) {
    if (lease.kind() == Lease.Kind.PERMIT) {
      RedisKeys.BulkheadKeys bulkhead = keys.bulkhead(lease.name());
      return List.of(bulkhead.holders(), bulkhead.queue(), bulkhead.waiters(), bulkhead.state());
    }
    RedisKeys.LockKeys lock = keys.lock(lease.name(), lease.key());
    return List.of(lock.readers(), lock.queue(), lock.waiters(), lock.state());
  }

  private String slotOf(Lease lease) {
    return Integer.toString(JedisClusterCRC16.getSlot(renewalKeys(lease).get(0)));
  }
}
