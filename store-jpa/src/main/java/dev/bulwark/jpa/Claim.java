package dev.bulwark.jpa;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A row of the claim table as a step reads and changes it: a holder or a queued request of one JVM
 * on a bulkhead or a lock key. The step writes back only the rows it {@linkplain #changed changed},
 * and only if the row is still as it was read ({@link #readHeld}, {@link #readNotice}, the lease's
 * end): renewal and the wake-ups change rows without the limit's lock, and a write that did not
 * check would undo them.
 */
final class Claim {

  private final String id;
  private final String instance;
  private final long requestId;
  private final String mode;
  private final long seq;

  /** The lease's end; a step never changes it (renewal does, and a hand-over keeps it). */
  private final long expiresAt;

  private boolean readHeld;
  private boolean readNotice;
  private boolean held;
  private long grantedAt;
  private long token;
  private boolean notice;
  private boolean changed;

  private Claim(String id, String instance, long requestId, String mode, long seq, long expiresAt) {
    this.id = id;
    this.instance = instance;
    this.requestId = requestId;
    this.mode = mode;
    this.seq = seq;
    this.expiresAt = expiresAt;
  }

  /** A new request, queued until {@link #hold}. */
  static Claim request(
      String id, String instance, long requestId, String mode, long seq, long expiresAt) {
    return new Claim(id, instance, requestId, mode, seq, expiresAt);
  }

  /** The claim in the current row of {@code rows}, from its {@code first} column on. */
  static Claim read(ResultSet rows, int first) throws SQLException {
    Claim claim =
        new Claim(
            rows.getString(first),
            rows.getString(first + 1),
            rows.getLong(first + 2),
            rows.getString(first + 3),
            rows.getLong(first + 5),
            rows.getLong(first + 6));
    claim.held = rows.getBoolean(first + 4);
    claim.grantedAt = rows.getLong(first + 7);
    claim.token = rows.getLong(first + 8);
    claim.notice = rows.getBoolean(first + 9);
    claim.readHeld = claim.held;
    claim.readNotice = claim.notice;
    return claim;
  }

  String id() {
    return id;
  }

  String instance() {
    return instance;
  }

  long requestId() {
    return requestId;
  }

  String mode() {
    return mode;
  }

  long seq() {
    return seq;
  }

  boolean held() {
    return held;
  }

  long expiresAt() {
    return expiresAt;
  }

  long grantedAt() {
    return grantedAt;
  }

  long token() {
    return token;
  }

  boolean notice() {
    return notice;
  }

  /** Whether the row held its permit or lock when the step read it. */
  boolean readHeld() {
    return readHeld;
  }

  /** Whether the row was marked for its JVM to be told when the step read it. */
  boolean readNotice() {
    return readNotice;
  }

  boolean liveAt(long nowMicros) {
    return expiresAt > nowMicros;
  }

  /** Whether the step changed this row since reading it. */
  boolean changed() {
    return changed;
  }

  /**
   * Makes this request a holder from {@code nowMicros}, with {@code token}, keeping its lease;
   * {@code notice} marks a hand-over its JVM has yet to be told of.
   */
  void hold(long token, long nowMicros, boolean notice) {
    this.held = true;
    this.token = token;
    this.grantedAt = nowMicros;
    this.notice = notice;
    this.changed = true;
  }

  void told() {
    this.notice = false;
    this.changed = true;
  }
}
