package dev.bulwark.jpa.entity;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One limit (a bulkhead, a lock name or a rate limit): the row every operation on the limit locks
 * first, so that operations on one limit run one after another and all take their locks in the same
 * order. It is created on first use and never deleted: it carries the fencing counter (tokens keep
 * growing after every key's rows are gone), the queue's arrival counter, the definition a JVM
 * recorded, and a rate limit's state. Steps on bulkheads and locks write it with statements of
 * their own, so no provider may keep it in a shared cache.
 */
@Entity
@Cacheable(false)
@Table(name = "bulwark_limit")
public class LimitRow {

  /** {@link RowIds#limit}: a hash of the kind and the name. */
  @Id
  @Column(name = "id", length = 64, nullable = false)
  private String id;

  /** P (bulkhead), L (lock name), R (rate limit). */
  @Column(name = "kind", length = 1, nullable = false)
  private String kind;

  @Column(name = "name", length = 1000, nullable = false)
  private String name;

  /** The last write token given out under this name; starts at the store's clock in micros. */
  @Column(name = "fencing", nullable = false)
  private long fencing;

  /** The arrival number of the next queued request or rolling-log entry. */
  @Column(name = "next_seq", nullable = false)
  private long nextSeq;

  @Column(name = "definition", length = 255)
  private String definition;

  @Column(name = "defined_by", length = 64)
  private String definedBy;

  /**
   * The algorithm whose state {@link #rateFirst} and {@link #rateSecond} hold; null for none. A
   * SMOOTH or FIXED limit keeps its state's two longs there; a ROLLING one keeps its grant times as
   * rows, and there the number of those rows and the newest time (see {@code RollingLog}).
   */
  @Column(name = "rate_type", length = 8)
  private String rateType;

  @Column(name = "rate_first", nullable = false)
  private long rateFirst;

  @Column(name = "rate_second", nullable = false)
  private long rateSecond;

  protected LimitRow() {}

  public LimitRow(String id, String kind, String name, long fencing) {
    this.id = id;
    this.kind = kind;
    this.name = name;
    this.fencing = fencing;
  }

  public String id() {
    return id;
  }

  public String name() {
    return name;
  }

  public long nextSeq() {
    return nextSeq++;
  }

  /** The arrival number {@link #nextSeq} gives next, without taking it. */
  public long upcomingSeq() {
    return nextSeq;
  }

  public String definition() {
    return definition;
  }

  public String definedBy() {
    return definedBy;
  }

  public void define(String definition, String definedBy) {
    this.definition = definition;
    this.definedBy = definedBy;
  }

  public String rateType() {
    return rateType;
  }

  public long rateFirst() {
    return rateFirst;
  }

  public long rateSecond() {
    return rateSecond;
  }

  public void rateState(String type, long first, long second) {
    this.rateType = type;
    this.rateFirst = first;
    this.rateSecond = second;
  }
}
