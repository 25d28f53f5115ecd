package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.Lease;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renews a JVM's leases in one transaction per tick: one UPDATE per lease length (usually one per
 * tick) extends every one the store still knows from the database's now; only when fewer rows were
 * renewed than asked for does a query find which are lost. A lease already run out is not revived.
 */
final class Renewal {

  /** Ids per statement, well below every database's limit on bound parameters. */
  private static final int CHUNK = 500;

  private final StoreCore core;

  Renewal(StoreCore core) {
    this.core = core;
  }

  List<Lease> renew(List<Lease> leases) {
    if (leases.isEmpty()) {
      return List.of();
    }
    Map<String, Lease> byId = new LinkedHashMap<>();
    Map<Long, List<String>> byLength = new LinkedHashMap<>();
    for (Lease lease : leases) {
      String id = claimId(lease);
      byId.put(id, lease);
      byLength.computeIfAbsent(lease.leaseMillis(), l -> new ArrayList<>()).add(id);
    }
    Set<String> known =
        core.transactions()
            .run(
                "renew " + leases.size() + " leases",
                em -> {
                  long now = core.nowMicros(em);
                  int renewed = 0;
                  for (Map.Entry<Long, List<String>> length : byLength.entrySet()) {
                    for (List<String> chunk : chunks(length.getValue())) {
                      renewed +=
                          em.createQuery(
                                  "UPDATE ClaimRow c SET c.expiresAt = :until"
                                      + " WHERE c.id IN :ids AND c.expiresAt > :now")
                              .setParameter("until", now + length.getKey() * 1000)
                              .setParameter("ids", chunk)
                              .setParameter("now", now)
                              .executeUpdate();
                    }
                  }
                  if (renewed == byId.size()) {
                    return byId.keySet();
                  }
                  // some are lost: the renewed ones now end after now, the lost ones are gone
                  Set<String> live = new HashSet<>();
                  for (List<String> chunk : chunks(new ArrayList<>(byId.keySet()))) {
                    live.addAll(
                        em.createQuery(
                                "SELECT c.id FROM ClaimRow c WHERE c.id IN :ids"
                                    + " AND c.expiresAt > :now",
                                String.class)
                            .setParameter("ids", chunk)
                            .setParameter("now", now)
                            .getResultList());
                  }
                  return live;
                });
    List<Lease> lost = new ArrayList<>();
    byId.forEach(
        (id, lease) -> {
          if (!known.contains(id)) {
            lost.add(lease);
          }
        });
    return lost;
  }

  private String claimId(Lease lease) {
    String kind = lease.kind() == Lease.Kind.PERMIT ? StoreCore.PERMITS : StoreCore.LOCKS;
    String limitId = RowIds.limit(kind, lease.name());
    return RowIds.claim(limitId, RowIds.key(lease.key()), core.instance(), lease.requestId());
  }

  private static List<List<String>> chunks(List<String> ids) {
    List<List<String>> chunks = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += CHUNK) {
      chunks.add(ids.subList(i, Math.min(ids.size(), i + CHUNK)));
    }
    return chunks;
  }
}
