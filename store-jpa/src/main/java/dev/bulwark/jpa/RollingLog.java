package dev.bulwark.jpa;

import dev.bulwark.RateLimitType;
import dev.bulwark.core.rate.GrantTimes;
import dev.bulwark.core.rate.RollingStep;
import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.entity.RateGrantRow;
import jakarta.persistence.EntityManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A ROLLING limit's grant log in the grant table, read by position for core's rolling step and
 * changed as the step says, on the limit's locked row: a reservation reads the rows at the few
 * positions the step asks for (two a query, by the index on the limit and the sequence number),
 * deletes the expired head by one range of sequence numbers, and appends one row.
 *
 * <p>Positions map to sequence numbers: a reservation deletes only the oldest rows and appends at
 * the limit's next number, so the log is the rows numbered {@code [next - size, next)}. The limit's
 * row keeps the size in {@code rate_first} and the newest time in {@code rate_second}, so that the
 * size needs no count. A log that has rows always has a size of one or more there; a row that says
 * ROLLING with a size of 0 was written by a version that kept no size, and its rows are counted,
 * once, by the reservation that finds it.
 */
final class RollingLog implements GrantTimes {

  private final EntityManager em;
  private final LimitRow limit;
  private final long head;
  private final int size;
  private final Map<Integer, Long> times = new HashMap<>();

  private RollingLog(EntityManager em, LimitRow limit, long head, int size) {
    this.em = em;
    this.limit = limit;
    this.head = head;
    this.size = size;
  }

  /** The log of {@code limit}, whose row this transaction holds locked. */
  static RollingLog of(EntityManager em, LimitRow limit) {
    if (!RateLimitType.ROLLING.name().equals(limit.rateType())) {
      // no log: a limit's rows go when it stops being ROLLING
      return new RollingLog(em, limit, limit.upcomingSeq(), 0);
    }
    if (limit.rateFirst() > 0) {
      int size = Math.toIntExact(limit.rateFirst());
      RollingLog log = new RollingLog(em, limit, limit.upcomingSeq() - size, size);
      log.times.put(size - 1, limit.rateSecond());
      return log;
    }
    Object[] counted =
        em.createQuery(
                "SELECT COUNT(g), MIN(g.seq) FROM RateGrantRow g WHERE g.limitId = :limit",
                Object[].class)
            .setParameter("limit", limit.id())
            .getSingleResult();
    int size = Math.toIntExact(((Number) counted[0]).longValue());
    long head = size == 0 ? limit.upcomingSeq() : ((Number) counted[1]).longValue();
    return new RollingLog(em, limit, head, size);
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public long get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("Index " + index + " of a log of " + size);
    }
    Long time = times.get(index);
    if (time == null) {
      read(index);
      time = times.get(index);
      if (time == null) {
        throw new IllegalStateException(
            "Bulwark: the rolling log of "
                + limit.name()
                + " has no grant numbered "
                + (head + index)
                + " (its rows were changed outside the store)");
      }
    }
    return time;
  }

  /** Reads the row at {@code index} and the next one, which the searches often ask for next. */
  private void read(int index) {
    List<Object[]> rows =
        em.createQuery(
                "SELECT g.seq, g.grantedAt FROM RateGrantRow g"
                    + " WHERE g.limitId = :limit AND g.seq BETWEEN :from AND :to",
                Object[].class)
            .setParameter("limit", limit.id())
            .setParameter("from", head + index)
            .setParameter("to", head + Math.min(index + 1, size - 1))
            .getResultList();
    for (Object[] row : rows) {
      times.put(
          Math.toIntExact(((Number) row[0]).longValue() - head), ((Number) row[1]).longValue());
    }
  }

  /** Deletes what {@code step} found expired and appends its slot when granted. */
  void apply(RollingStep step) {
    int left = size - step.expired();
    long newest = left > 0 ? get(size - 1) : 0;
    if (step.expired() > 0) {
      em.createQuery("DELETE FROM RateGrantRow g WHERE g.limitId = :limit AND g.seq < :kept")
          .setParameter("limit", limit.id())
          .setParameter("kept", head + step.expired())
          .executeUpdate();
    }
    if (step.decision().granted()) {
      em.persist(new RateGrantRow(limit.id(), limit.nextSeq(), step.slot()));
      left++;
      newest = step.slot();
    }
    limit.rateState(RateLimitType.ROLLING.name(), left, newest);
  }
}
