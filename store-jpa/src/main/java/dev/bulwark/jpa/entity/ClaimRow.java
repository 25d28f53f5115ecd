package dev.bulwark.jpa.entity;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/**
 * A request of one JVM on a bulkhead or a lock key: a holder ({@link #held}) or a queued request,
 * both leased. Rows of a limit are read and changed only while its {@link LimitRow} is locked;
 * renewal and the cleanup task touch them by id and expiry alone. The store's steps write these
 * rows with statements of their own, so no provider may keep them in a shared cache.
 */
@Entity
@Cacheable(false)
@Table(
    name = "bulwark_claim",
    indexes = {
      @Index(columnList = "limit_id, key_hash, seq"),
      @Index(columnList = "instance, notice"),
      @Index(columnList = "expires_at")
    })
public class ClaimRow {

  /** {@link RowIds#claim}: a hash of limit, key, instance and request id. */
  @Id
  @Column(name = "id", length = 64, nullable = false)
  private String id;

  @Column(name = "limit_id", length = 64, nullable = false)
  private String limitId;

  /** {@link RowIds#key}: the lock key's hash; empty for a bulkhead permit. */
  @Column(name = "key_hash", length = 64, nullable = false)
  private String keyHash;

  /** The JVM (store instance) that made the request. */
  @Column(name = "instance", length = 32, nullable = false)
  private String instance;

  @Column(name = "request_id", nullable = false)
  private long requestId;

  /** P (permit), R (read), W (write). */
  @Column(name = "claim_mode", length = 1, nullable = false)
  private String mode;

  @Column(name = "held", nullable = false)
  private boolean held;

  /** Arrival order within the limit. */
  @Column(name = "seq", nullable = false)
  private long seq;

  /** The lease's end on the database clock, in microseconds since the epoch. */
  @Column(name = "expires_at", nullable = false)
  private long expiresAt;

  /**
   * When the request became a holder, on the database clock in microseconds since the epoch; 0
   * while queued.
   */
  @Column(name = "granted_at", nullable = false)
  private long grantedAt;

  /** A lock holder's fencing token; 0 for a permit and while queued. */
  @Column(name = "token", nullable = false)
  private long token;

  /** Handed over to a queued request of another JVM, which has not been told yet. */
  @Column(name = "notice", nullable = false)
  private boolean notice;

  protected ClaimRow() {}

  public String instance() {
    return instance;
  }

  public long requestId() {
    return requestId;
  }

  public String mode() {
    return mode;
  }

  public boolean held() {
    return held;
  }

  public long token() {
    return token;
  }

  public boolean notice() {
    return notice;
  }

  /** The lease's end on the database clock, in microseconds since the epoch. */
  public long expiresAt() {
    return expiresAt;
  }

  /** When it became a holder, in database microseconds; 0 while queued. */
  public long grantedAt() {
    return grantedAt;
  }

  public boolean liveAt(long nowMicros) {
    return expiresAt > nowMicros;
  }
}
