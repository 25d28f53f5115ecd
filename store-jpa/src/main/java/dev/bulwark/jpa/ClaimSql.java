package dev.bulwark.jpa;

import dev.bulwark.jpa.setup.Dialect;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The statements of a step and of renewal on the claim and limit tables, under the names the unit's
 * provider maps the entities to: the entities define the tables, these statements read and write
 * them without the provider's entity bookkeeping. Every value is a bound parameter; only the table
 * names (the provider's) and the database's clock expression are part of the text.
 */
final class ClaimSql {

  /** The columns {@link #read} answers after the clock and the limit's two counters. */
  static final String CLAIM_COLUMNS =
      "c.id, c.instance, c.request_id, c.claim_mode, c.held, c.seq, c.expires_at, c.granted_at,"
          + " c.token, c.notice";

  private final Dialect dialect;
  private final String limits;
  private final String claims;

  /**
   * @param limits the limit table's name as SQL refers to it
   * @param claims the claim table's name as SQL refers to it
   */
  ClaimSql(Dialect dialect, String limits, String claims) {
    this.dialect = dialect;
    this.limits = limits;
    this.claims = claims;
  }

  Dialect dialect() {
    return dialect;
  }

  /** Locks the limit's row; answers a row only when it exists. */
  Sql lock(String limitId) {
    return Sql.of("SELECT id FROM " + limits + " WHERE id = ? FOR UPDATE", limitId);
  }

  /**
   * The database's clock, the limit's fencing counter and arrival counter, and the claims of the
   * given keys in arrival order, each with its key's hash after {@link #CLAIM_COLUMNS}: one row
   * with no claim columns when the keys have none, no row when the limit does not exist. Run after
   * {@link #lock}, in a statement of its own, so that it sees what the step before committed and
   * reads the clock after the wait for the lock.
   */
  Sql read(String limitId, List<String> keyHashes) {
    List<Object> parameters = new ArrayList<>(keyHashes);
    parameters.add(limitId);
    return new Sql(
        "SELECT "
            + dialect.nowMicros()
            + ", l.fencing, l.next_seq, "
            + CLAIM_COLUMNS
            + ", c.key_hash FROM "
            + limits
            + " l LEFT JOIN "
            + claims
            + " c ON c.limit_id = l.id AND c.key_hash IN ("
            + placeholders(keyHashes.size())
            + ") WHERE l.id = ? ORDER BY c.seq",
        parameters);
  }

  Sql insert(String limitId, String keyHash, Claim claim) {
    return Sql.of(
        "INSERT INTO "
            + claims
            + " (id, limit_id, key_hash, instance, request_id, claim_mode, held, seq, expires_at,"
            + " granted_at, token, notice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        claim.id(),
        limitId,
        keyHash,
        claim.instance(),
        claim.requestId(),
        claim.mode(),
        claim.held(),
        claim.seq(),
        claim.expiresAt(),
        claim.grantedAt(),
        claim.token(),
        claim.notice());
  }

  /**
   * Writes what a step may change of a claim (its grant and whether its JVM was told) if the row is
   * still as the step read it: a renewal or a wake-up that changed it since makes the step a
   * conflict, run again on what they wrote. The lease's end is never written, so a renewal is kept.
   */
  Sql update(Claim claim) {
    return Sql.of(
            "UPDATE "
                + claims
                + " SET held = ?, granted_at = ?, token = ?, notice = ?"
                + " WHERE id = ? AND expires_at = ? AND held = ? AND notice = ?",
            claim.held(),
            claim.grantedAt(),
            claim.token(),
            claim.notice(),
            claim.id(),
            claim.expiresAt(),
            claim.readHeld(),
            claim.readNotice())
        .changing(1);
  }

  /**
   * Deletes claims the step read (expired ones, and requests released or cancelled) if each still
   * ends when it did then: a claim renewed since was not expired after all, and the step, a
   * conflict, runs again.
   */
  Sql delete(List<Claim> deleted) {
    List<Object> parameters = new ArrayList<>();
    StringBuilder where = new StringBuilder();
    for (Claim claim : deleted) {
      where.append(where.isEmpty() ? "" : " OR ").append("(id = ? AND expires_at = ?)");
      parameters.add(claim.id());
      parameters.add(claim.expiresAt());
    }
    return new Sql("DELETE FROM " + claims + " WHERE " + where, parameters)
        .changing(deleted.size());
  }

  Sql counters(String limitId, long fencing, long nextSeq) {
    return Sql.of(
        "UPDATE " + limits + " SET fencing = ?, next_seq = ? WHERE id = ?",
        fencing,
        nextSeq,
        limitId);
  }

  /**
   * Extends the leases of the given ids that have not run out, each by its length in microseconds,
   * from the database's now: one statement whatever the lengths (usually all are one).
   */
  Sql renew(Map<Long, List<String>> idsByLeaseMicros) {
    List<Object> parameters = new ArrayList<>();
    StringBuilder lease = new StringBuilder();
    if (idsByLeaseMicros.size() == 1) {
      lease.append('?');
      parameters.add(idsByLeaseMicros.keySet().iterator().next());
    } else {
      lease.append("CASE");
      idsByLeaseMicros.forEach(
          (micros, ids) -> {
            lease.append(" WHEN id IN (").append(placeholders(ids.size())).append(") THEN ?");
            parameters.addAll(ids);
            parameters.add(micros);
          });
      lease.append(" END");
    }
    List<String> all = idsByLeaseMicros.values().stream().flatMap(List::stream).toList();
    parameters.addAll(all);
    return new Sql(
        "UPDATE "
            + claims
            + " SET expires_at = "
            + dialect.nowMicros()
            + " + "
            + lease
            + " WHERE id IN ("
            + placeholders(all.size())
            + ") AND expires_at > "
            + dialect.nowMicros(),
        parameters);
  }

  /** The ids of {@code ids} whose lease has not run out. */
  Sql live(List<String> ids) {
    return new Sql(
        "SELECT id FROM "
            + claims
            + " WHERE id IN ("
            + placeholders(ids.size())
            + ") AND expires_at > "
            + dialect.nowMicros(),
        List.copyOf(ids));
  }

  /** PostgreSQL: wakes the JVM listening on {@code channel} when the transaction commits. */
  static Sql notify(String channel) {
    return Sql.of("SELECT pg_notify(?, '')", channel);
  }

  private static String placeholders(int count) {
    return String.join(", ", Collections.nCopies(count, "?"));
  }
}
