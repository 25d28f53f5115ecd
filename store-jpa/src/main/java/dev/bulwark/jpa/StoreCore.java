package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.jpa.setup.TableNames;
import dev.bulwark.jpa.tx.Connections;
import dev.bulwark.jpa.tx.Transactions;
import dev.bulwark.spi.GrantListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
  private final TableNames names;

  /** Made on the first transaction, from its provider's mapping. */
  private volatile MappedStatements statements;

  private final String instance;
  private final GrantListener listener;

  StoreCore(
      Transactions transactions,
      Dialect dialect,
      TableNames names,
      String instance,
      GrantListener listener) {
    this.transactions = transactions;
    this.dialect = dialect;
    this.names = names;
    this.instance = instance;
    this.listener = listener;
  }

  String instance() {
    return instance;
  }

  Transactions transactions() {
    return transactions;
  }

  /** The statements on the store's tables as the unit of {@code em} names them. */
  MappedStatements statements(EntityManager em) {
    MappedStatements known = statements;
    if (known == null) {
      known = MappedStatements.of(dialect, em, names);
      statements = known;
    }
    return known;
  }

  /** The statements of steps and renewal on the claim table as the unit of {@code em} names it. */
  ClaimSql sql(EntityManager em) {
    return statements(em).claims();
  }

  /**
   * Runs {@code body} as one step on the requests of {@code name} (and {@code key}) and then tells
   * this JVM's listener of the hand-overs the step made to its other requests; other JVMs find
   * theirs through {@link WakeUps}.
   *
   * <p>The step's own statements run on the transaction's connection: lock the limit's row, read
   * the clock with the key's claims, write the changes (and NOTIFY on PostgreSQL), commit. Where
   * the driver sends statements together (PostgreSQL), the lock and the read travel as one round
   * trip and so do the writes, the server running each statement after the one before, so the read
   * still starts after the lock is held.
   *
   * @param self the request the caller asks about, which learns of its grant from the answer
   */
  <T> T step(
      String operation, String kind, String name, String key, long self, Function<Step, T> body) {
    List<HandOver> told = new ArrayList<>();
    String limitId = RowIds.limit(kind, name);
    String keyHash = RowIds.key(key);
    T result =
        transactions.run(
            operation + " of " + name,
            em -> {
              told.clear();
              ClaimSql sql = sql(em);
              Step step = Connections.run(em, c -> lockAndRead(c, sql, limitId, keyHash));
              if (step == null) {
                // another JVM creating it at once: one row between them, no duplicate-key error
                statements(em)
                    .limitRowInsert()
                    .insertIfAbsent(em, limitId, kind, name, nowMicros(em));
                step = Connections.run(em, c -> lockAndRead(c, sql, limitId, keyHash));
                if (step == null) {
                  throw new IllegalStateException("Bulwark: the row of limit " + name + " is gone");
                }
              }
              T answer = body.apply(step);
              List<Sql> writes = new ArrayList<>(step.writes(sql));
              writes.addAll(publish(step.handedOver(), told));
              Connections.run(
                  em,
                  c -> {
                    Sql.runAll(c, dialect.sendsStatementsTogether(), writes);
                    return null;
                  });
              return answer;
            });
    for (HandOver handOver : told) {
      if (handOver.instance().equals(instance) && handOver.requestId() != self) {
        listener.granted(handOver.requestId(), handOver.fencingToken());
      }
    }
    return result;
  }

  /** The step on the limit's locked row, or null when the limit has no row yet. */
  private Step lockAndRead(Connection connection, ClaimSql sql, String limitId, String keyHash)
      throws SQLException {
    Sql lock = sql.lock(limitId);
    if (!dialect.sendsStatementsTogether()) {
      try (PreparedStatement locking = lock.prepare(connection);
          ResultSet row = locking.executeQuery()) {
        if (!row.next()) {
          return null;
        }
      }
      return read(connection, sql, limitId, keyHash);
    }
    try (PreparedStatement both =
        Sql.joined(List.of(lock, sql.read(limitId, keyHash))).prepare(connection)) {
      both.execute();
      boolean locked;
      try (ResultSet row = both.getResultSet()) {
        locked = row.next();
      }
      if (!both.getMoreResults()) {
        throw new SQLException("Bulwark: the read of a step answered no rows");
      }
      try (ResultSet rows = both.getResultSet()) {
        // without the row, the read ran unlocked and answered nothing
        return locked ? step(rows, limitId, keyHash) : null;
      }
    }
  }

  /** Reads the step of a limit whose row this transaction holds. */
  private Step read(Connection connection, ClaimSql sql, String limitId, String keyHash)
      throws SQLException {
    try (PreparedStatement read = sql.read(limitId, keyHash).prepare(connection);
        ResultSet rows = read.executeQuery()) {
      Step step = step(rows, limitId, keyHash);
      if (step == null) {
        throw new SQLException("Bulwark: the limit's row is gone while locked");
      }
      return step;
    }
  }

  private Step step(ResultSet rows, String limitId, String keyHash) throws SQLException {
    if (!rows.next()) {
      return null;
    }
    long now = Dialect.clock(rows.getObject(1));
    long fencing = rows.getLong(2);
    long nextSeq = rows.getLong(3);
    List<Claim> claims = new ArrayList<>();
    do {
      if (rows.getString(4) != null) {
        claims.add(Claim.read(rows, 4));
      }
    } while (rows.next());
    return new Step(limitId, keyHash, instance, now, fencing, nextSeq, claims);
  }

  /** The limit's row, locked for this transaction; created on first use. */
  LimitRow lockLimit(EntityManager em, String kind, String name) {
    String id = RowIds.limit(kind, name);
    LimitRow limit = em.find(LimitRow.class, id, LockModeType.PESSIMISTIC_WRITE);
    if (limit == null) {
      // another JVM creating it at once: one row between them, and no duplicate-key error
      statements(em).limitRowInsert().insertIfAbsent(em, id, kind, name, nowMicros(em));
      limit = em.find(LimitRow.class, id, LockModeType.PESSIMISTIC_WRITE);
    }
    return limit;
  }

  /** The database's clock in microseconds since the epoch. */
  long nowMicros(EntityManager em) {
    return Dialect.clock(em.createNativeQuery(dialect.nowMicrosSql()).getSingleResult());
  }

  /**
   * Records the hand-overs to be told after the commit, and answers the statements that announce
   * another JVM's on PostgreSQL by NOTIFY on its channel, which the database delivers when this
   * transaction commits; its {@link WakeUps} finds them by their mark in any case.
   */
  private List<Sql> publish(List<Claim> handedOver, List<HandOver> told) {
    Set<String> others = new LinkedHashSet<>();
    for (Claim claim : handedOver) {
      told.add(new HandOver(claim.instance(), claim.requestId(), claim.token()));
      if (!claim.instance().equals(instance)) {
        others.add(claim.instance());
      }
    }
    if (dialect != Dialect.POSTGRESQL) {
      return List.of();
    }
    return others.stream().map(other -> ClaimSql.notify(WakeUps.channel(other))).toList();
  }
}
