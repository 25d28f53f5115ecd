package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.jpa.tx.Connections;
import dev.bulwark.spi.Lease;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renews a JVM's leases in one transaction per tick: one UPDATE (per {@value #CHUNK} leases)
 * extends every one the store still knows by the length its lease names, from the database's now;
 * only when fewer rows were renewed than asked for does a query find which are lost. A lease
 * already run out is not revived.
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
    for (Lease lease : leases) {
      byId.put(claimId(lease), lease);
    }
    List<List<String>> chunks = chunks(new ArrayList<>(byId.keySet()));
    Set<String> known =
        core.transactions()
            .run(
                "renew " + leases.size() + " leases",
                em ->
                    Connections.run(
                        em,
                        connection -> {
                          ClaimSql sql = core.sql(em);
                          int renewed = 0;
                          for (List<String> chunk : chunks) {
                            try (PreparedStatement update =
                                sql.renew(byLength(chunk, byId)).prepare(connection)) {
                              renewed += update.executeUpdate();
                            }
                          }
                          if (renewed == byId.size()) {
                            return byId.keySet();
                          }
                          // some are lost: the renewed ones now end after now, the lost ones not
                          Set<String> live = new HashSet<>();
                          for (List<String> chunk : chunks) {
                            try (PreparedStatement query = sql.live(chunk).prepare(connection);
                                ResultSet rows = query.executeQuery()) {
                              while (rows.next()) {
                                live.add(rows.getString(1));
                              }
                            }
                          }
                          return live;
                        }));
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

  /** The ids of {@code chunk} by their lease's length in microseconds. */
  private static Map<Long, List<String>> byLength(List<String> chunk, Map<String, Lease> byId) {
    Map<Long, List<String>> byLength = new LinkedHashMap<>();
    for (String id : chunk) {
      byLength
          .computeIfAbsent(byId.get(id).leaseMillis() * 1000, micros -> new ArrayList<>())
          .add(id);
    }
    return byLength;
  }

  private static List<List<String>> chunks(List<String> ids) {
    List<List<String>> chunks = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += CHUNK) {
      chunks.add(ids.subList(i, Math.min(ids.size(), i + CHUNK)));
    }
    return chunks;
  }
}
