package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.entity.RowIds;
import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;

/**
 * One atomic step on the requests of a bulkhead or a lock key, inside the transaction that locked
 * the limit's row: the live requests in arrival order (expired ones are deleted on loading, which
 * is how a lease runs out), and the hand-overs made, to be told after the commit.
 */
final class Step {

  private final EntityManager em;
  private final LimitRow limit;
  private final String keyHash;
  private final String instance;
  private final long nowMicros;
  private final List<ClaimRow> live;
  private final List<ClaimRow> handedOver = new ArrayList<>();
  private long lastToken;

  Step(EntityManager em, LimitRow limit, String keyHash, String instance, long nowMicros) {
    this.em = em;
    this.limit = limit;
    this.keyHash = keyHash;
    this.instance = instance;
    this.nowMicros = nowMicros;
    this.live = new ArrayList<>();
    List<ClaimRow> rows =
        em.createQuery(
                "SELECT c FROM ClaimRow c WHERE c.limitId = :limit AND c.keyHash = :key"
                    + " ORDER BY c.seq",
                ClaimRow.class)
            .setParameter("limit", limit.id())
            .setParameter("key", keyHash)
            .getResultList();
    for (ClaimRow row : rows) {
      // every holder of a key carries the token of its last write, expired ones included
      lastToken = Math.max(lastToken, row.token());
      if (row.liveAt(nowMicros)) {
        live.add(row);
      } else {
        em.remove(row);
      }
    }
  }

  LimitRow limit() {
    return limit;
  }

  /** The token of the key's last write while the key has rows, else 0. */
  long lastToken() {
    return lastToken;
  }

  void wrote(long token) {
    lastToken = token;
  }

  /**
   * The live request {@code requestId} of this JVM, or null. The caller learns of a grant from its
   * answer, so a hand-over not yet told is not told again.
   */
  ClaimRow mine(long requestId) {
    for (ClaimRow row : live) {
      if (row.requestId() == requestId && row.instance().equals(instance)) {
        if (row.notice()) {
          row.told();
        }
        return row;
      }
    }
    return null;
  }

  List<ClaimRow> holders() {
    return live.stream().filter(ClaimRow::held).toList();
  }

  /** The queued requests, oldest first. */
  List<ClaimRow> queue() {
    return live.stream().filter(r -> !r.held()).toList();
  }

  /** Adds a request of this JVM, as a holder with {@code token} or (token -1) queued. */
  void add(long requestId, String mode, long leaseMillis, boolean held, long token) {
    ClaimRow row =
        new ClaimRow(
            RowIds.claim(limit.id(), keyHash, instance, requestId),
            limit.id(),
            keyHash,
            instance,
            requestId,
            mode,
            limit.nextSeq(),
            until(leaseMillis));
    if (held) {
      row.hold(token, nowMicros, until(leaseMillis), false);
    }
    em.persist(row);
    live.add(row);
  }

  void remove(ClaimRow row) {
    live.remove(row);
    em.remove(row);
  }

  /**
   * Grants a queued request; its JVM is told after the commit. The grant keeps the lease the
   * request had while queued, which its JVM renews while the caller waits: a request whose caller
   * gave up (its cancel lost in an outage) holds the permit only until then, not a lease more.
   *
   * @param leaseMillis the request's lease, which its queued row already carries
   */
  void handOver(ClaimRow queued, long token, long leaseMillis) {
    queued.hold(token, nowMicros, queued.expiresAt(), !queued.instance().equals(instance));
    handedOver.add(queued);
  }

  /** The hand-overs this step made, in order. */
  List<ClaimRow> handedOver() {
    return handedOver;
  }

  private long until(long leaseMillis) {
    return nowMicros + leaseMillis * 1000;
  }
}
