package dev.bulwark.redis;

import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PartialRenewalException;
import dev.bulwark.spi.StoreException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renews a batch of leases with as few script calls as the topology allows: one per chunk on a
 * single server, one per hash tag on a Cluster (a script may touch one slot only). When some
 * batches fail and others do not, the failure names the leases of the failed ones, so they are
 * retried at the next tick while the others count as renewed.
 */
final class LeaseRenewal {

  /** Bounds how long one renewal script blocks the server. */
  private static final int CHUNK = 256;

  private final RedisCalls redis;
  private final RedisKeys keys;
  private final boolean cluster;

  LeaseRenewal(RedisCalls redis, RedisKeys keys, boolean cluster) {
    this.redis = redis;
    this.keys = keys;
    this.cluster = cluster;
  }

  List<Lease> renew(List<Lease> leases) {
    Map<String, List<Lease>> batches = new LinkedHashMap<>();
    for (Lease lease : leases) {
      String batch = cluster ? tagOf(lease) : "";
      List<Lease> chunk = batches.computeIfAbsent(batch, b -> new ArrayList<>());
      chunk.add(lease);
      if (chunk.size() == CHUNK) {
        batches.put(batch + "#" + batches.size(), batches.remove(batch));
      }
    }
    List<Lease> lost = new ArrayList<>();
    List<Lease> notRenewed = new ArrayList<>();
    StoreException failure = null;
    for (List<Lease> batch : batches.values()) {
      try {
        lost.addAll(renewBatch(batch));
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
    Object reply = redis.run(Scripts.RENEW, scriptKeys, args);
    List<Lease> lost = new ArrayList<>();
    for (Object position : (List<?>) reply) {
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

  private String tagOf(Lease lease) {
    String key = renewalKeys(lease).get(0);
    return key.substring(key.indexOf('{'), key.indexOf('}') + 1);
  }
}
