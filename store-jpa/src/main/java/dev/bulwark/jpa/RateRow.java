package dev.bulwark.jpa;

import dev.bulwark.RateLimitType;
import dev.bulwark.core.rate.RateState;
import dev.bulwark.jpa.setup.Dialect;
import jakarta.persistence.EntityManager;
import java.util.List;

/**
 * A SMOOTH or FIXED limit's two longs on its row, read and swapped by native statements without
 * locking the row first: {@link #read} reads them with the database's clock in one statement, and
 * {@link #swap} writes the next state only if the row still holds the one read (a compare-and-set
 * that locks the row for the rest of its transaction only). No lock is held while the caller's JVM
 * computes, so a JVM that runs slowly (paused, starved of CPU) delays its own calls only.
 *
 * <p>A swap compares the state, not a version: every grant moves a state forward (GCRA's arrival
 * time only grows, a fixed window's number or count grows), so a row that holds the state read has
 * not changed since. A state moved by any other path (the locked one, another JVM) fails the swap.
 */
final class RateRow {

  private final String read;
  private final String swap;

  /**
   * @param limitTable the limit table's name as SQL refers to it, as the unit's provider maps it
   *     (schema and prefix included; never a user value)
   */
  RateRow(Dialect dialect, String limitTable) {
    this.read =
        "SELECT rate_type, rate_first, rate_second, "
            + dialect.nowMicros()
            + " FROM "
            + limitTable
            + " WHERE id = ?1";
    this.swap =
        "UPDATE "
            + limitTable
            + " SET rate_type = ?1, rate_first = ?2, rate_second = ?3"
            + " WHERE id = ?4 AND rate_type = ?5 AND rate_first = ?6 AND rate_second = ?7";
  }

  /**
   * The limit's stored state and the database's time, read together; the clock is evaluated after
   * the statement's snapshot, so it is never earlier than the commit of the state read.
   *
   * @return null when the row is missing or holds no SMOOTH or FIXED state (none yet, ROLLING):
   *     those take the locked path
   */
  Stored read(EntityManager em, String limitId) {
    List<?> rows = em.createNativeQuery(read).setParameter(1, limitId).getResultList();
    if (rows.isEmpty()) {
      return null;
    }
    Object[] row = (Object[]) rows.get(0);
    if (row[0] == null) {
      return null;
    }
    RateLimitType type = RateLimitType.valueOf(row[0].toString().trim());
    if (type == RateLimitType.ROLLING) {
      return null;
    }
    long[] longs = {((Number) row[1]).longValue(), ((Number) row[2]).longValue()};
    return new Stored(RateState.fromLongs(type, longs), Dialect.clock(row[3]) * 1000);
  }

  /**
   * Writes {@code next} if the row still holds {@code read}; the row stays locked until the
   * transaction ends.
   *
   * @return false when another transaction changed the state since it was read
   */
  boolean swap(EntityManager em, String limitId, RateState read, RateState next) {
    long[] from = read.toLongs();
    long[] to = next.toLongs();
    int updated =
        em.createNativeQuery(swap)
            .setParameter(1, next.type().name())
            .setParameter(2, to[0])
            .setParameter(3, to[1])
            .setParameter(4, limitId)
            .setParameter(5, read.type().name())
            .setParameter(6, from[0])
            .setParameter(7, from[1])
            .executeUpdate();
    return updated == 1;
  }

  /**
   * A state as read, with the database's time of the read.
   *
   * @param nowNanos the database's clock, in nanoseconds since the epoch (microsecond precision)
   */
  record Stored(RateState state, long nowNanos) {}
}
