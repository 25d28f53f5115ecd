package dev.bulwark.jpa;

import dev.bulwark.Holder;
import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.jpa.entity.RowIds;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The operator's view of the claim table: the live requests of a bulkhead or a lock key, read in
 * one short transaction by a single plain query, which locks no row and changes none. An expired
 * row is left out but left in place: the next step on the limit deletes it, as it would have.
 */
final class Inspection {

  private final StoreCore core;

  Inspection(StoreCore core) {
    this.core = core;
  }

  /** The live requests of {@code name} (and {@code key}), holders and queued, in arrival order. */
  List<ClaimRow> liveClaims(String operation, String kind, String name, String key) {
    return core.transactions()
        .run(
            operation + " of " + name,
            em -> {
              long now = core.nowMicros(em);
              return em
                  .createQuery(
                      "SELECT c FROM ClaimRow c WHERE c.limitId = :limit AND c.keyHash = :key"
                          + " ORDER BY c.seq",
                      ClaimRow.class)
                  .setParameter("limit", RowIds.limit(kind, name))
                  .setParameter("key", RowIds.key(key))
                  .getResultList()
                  .stream()
                  .filter(row -> row.liveAt(now))
                  .toList();
            });
  }

  static Holder holder(ClaimRow row) {
    return new Holder(
        row.instance(),
        row.requestId(),
        Optional.of(micros(row.expiresAt())),
        // 0: a row granted before the column existed (added with its default by an upgrade)
        row.grantedAt() == 0 ? Optional.empty() : Optional.of(micros(row.grantedAt())));
  }

  private static Instant micros(long epochMicros) {
    return Instant.EPOCH.plus(epochMicros, ChronoUnit.MICROS);
  }
}
