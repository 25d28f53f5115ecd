package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.jpa.tx.Transactions;
import dev.bulwark.spi.GrantListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What every primitive shares: this JVM's instance id, the transactions, the database clock, the
 * limit row lock, and telling hand-overs. A step locks the limit's row before it reads anything
 * else, and locks nothing but that limit's rows, so two steps cannot deadlock on limits.
 */
final class StoreCore {

  static final String PERMITS = "P";
  static final String LOCKS = "L";
  static final String RATES = "R";

  private final Transactions transactions;
  private final Dialect dialect;
  private final String instance;
  private final GrantListener listener;
  private final LimitRowInsert limitRowInsert;

  StoreCore(
      Transactions transactions,
      Dialect dialect,
      String instance,
      GrantListener listener,
      LimitRowInsert limitRowInsert) {
    this.transactions = transactions;
    this.dialect = dialect;
    this.instance = instance;
    this.listener = listener;
    this.limitRowInsert = limitRowInsert;
  }

  String instance() {
    return instance;
  }

  Transactions transactions() {
    return transactions;
  }

  /**
   * Runs {@code body} as one step on the requests of {@code name} (and {@code key}) and then tells
   * this JVM's listener of the hand-overs the step made to its other requests; other JVMs find
   * theirs through {@link WakeUps}.
   *
   * @param self the request the caller asks about, which learns of its grant from the answer
   */
  <T> T step(
      String operation, String kind, String name, String key, long self, Function<Step, T> body) {
    List<HandOver> told = new ArrayList<>();
    T result =
        transactions.run(
            operation + " of " + name,
            em -> {
              told.clear();
              LimitRow limit = lockLimit(em, kind, name);
              Step step = new Step(em, limit, RowIds.key(key), instance, nowMicros(em));
              T answer = body.apply(step);
              publish(em, step.handedOver(), told);
              return answer;
            });
    for (HandOver handOver : told) {
      if (handOver.instance().equals(instance) && handOver.requestId() != self) {
        listener.granted(handOver.requestId(), handOver.fencingToken());
      }
    }
    return result;
  }

  /** The limit's row, locked for this transaction; created on first use. */
  LimitRow lockLimit(EntityManager em, String kind, String name) {
    String id = RowIds.limit(kind, name);
    LimitRow limit = em.find(LimitRow.class, id, LockModeType.PESSIMISTIC_WRITE);
    if (limit == null) {
      // another JVM creating it at once: one row between them, and no duplicate-key error
      limitRowInsert.insertIfAbsent(em, id, kind, name, nowMicros(em));
      limit = em.find(LimitRow.class, id, LockModeType.PESSIMISTIC_WRITE);
    }
    return limit;
  }

  /** The database's clock in microseconds since the epoch. */
  long nowMicros(EntityManager em) {
    return ((Number) em.createNativeQuery(dialect.nowMicrosSql()).getSingleResult()).longValue();
  }

  /**
   * Records the hand-overs: another JVM's are marked for its {@link WakeUps} and, on PostgreSQL,
   * announced by NOTIFY on its channel, which the database delivers when this transaction commits.
   */
  private void publish(EntityManager em, List<ClaimRow> handedOver, List<HandOver> told) {
    Set<String> others = new LinkedHashSet<>();
    for (ClaimRow row : handedOver) {
      told.add(new HandOver(row.instance(), row.requestId(), row.token()));
      if (!row.instance().equals(instance)) {
        others.add(row.instance());
      }
    }
    if (dialect == Dialect.POSTGRESQL) {
      for (String other : others) {
        em.createNativeQuery("SELECT length(CAST(pg_notify(?1, '') AS text))")
            .setParameter(1, WakeUps.channel(other))
            .getSingleResult();
      }
    }
  }
}
