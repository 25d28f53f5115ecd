package dev.bulwark.jpa.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/**
 * One grant time of a ROLLING rate limit's log. A reservation deletes the times that left the
 * window and appends one, so a limit keeps at most its permits plus its reservations in rows.
 */
@Entity
@Table(name = "bulwark_rate_grant", indexes = @Index(columnList = "limit_id, seq"))
public class RateGrantRow {

  /** The limit's id and {@link #seq}. */
  @Id
  @Column(name = "id", length = 90, nullable = false)
  private String id;

  @Column(name = "limit_id", length = 64, nullable = false)
  private String limitId;

  @Column(name = "seq", nullable = false)
  private long seq;

  /** The grant time on the database clock, in nanoseconds since the epoch. */
  @Column(name = "granted_at", nullable = false)
  private long grantedAt;

  protected RateGrantRow() {}

  public RateGrantRow(String limitId, long seq, long grantedAt) {
    this.id = limitId + ":" + seq;
    this.limitId = limitId;
    this.seq = seq;
    this.grantedAt = grantedAt;
  }

  public long grantedAt() {
    return grantedAt;
  }
}
