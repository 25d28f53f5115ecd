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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every primitive shares: this JVM's instance id, the transactions, the database clock, the
 * limit row lock, and telling hand-overs. A transaction of steps (one operation, or a batch of them
 * on one limit) locks the limit's row before it reads anything else, and locks nothing but that
 * limit's rows, so two such transactions cannot deadlock on limits.
 */
final class StoreCore {

  static final String PERMITS = "P";
  static final String LOCKS = "L";
  static final String RATES = "R";

  /** How many columns {@link ClaimSql#CLAIM_COLUMNS} names. */
  private static final int CLAIM_COLUMN_COUNT = 10;

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
   * Applies {@code operations} on the requests of {@code name} in one transaction, one after the
   * other in order, each on the {@link Step} of its key, and then tells this JVM's listener of the
   * hand-overs they made to its requests (each but the one an operation made to the request it asks
   * about, which learns of it from its answer); other JVMs find theirs through {@link WakeUps}.
   * Every attempt starts again from what the database holds, so a transaction run again after a
   * conflict applies the whole batch again on the state then, and nothing of a failed attempt
   * counts.
   *
   * <p>The transaction's own statements run on its connection: lock the limit's row, read the clock
   * with the claims of every key the operations touch, write the changes (and NOTIFY on
   * PostgreSQL), commit: as many round trips for a batch as for one operation. Where the driver
   * sends statements together (PostgreSQL), the lock and the read travel as one round trip and so
   * do the writes, the server running each statement after the one before, so the read still starts
   * after the lock is held.
   *
   * @return one answer per operation, in order
   */
  <T> List<T> apply(String operation, String kind, String name, List<StepOperation<T>> operations) {
    if (operations.isEmpty()) {
      return List.of();
    }
    List<HandOver> told = new ArrayList<>();
    String limitId = RowIds.limit(kind, name);
    List<String> keyHashes =
        operations.stream().map(op -> RowIds.key(op.key())).distinct().toList();
    List<T> answers =
        transactions.run(
            operation + " of " + name,
            em -> {
              told.clear();
              ClaimSql sql = sql(em);
              Map<String, Step> steps =
                  Connections.run(em, c -> lockAndRead(c, sql, limitId, keyHashes));
              if (steps == null) {
                // another JVM creating it at once: one row between them, no duplicate-key error
                statements(em)
                    .limitRowInsert()
                    .insertIfAbsent(em, limitId, kind, name, nowMicros(em));
                steps = Connections.run(em, c -> lockAndRead(c, sql, limitId, keyHashes));
                if (steps == null) {
                  throw new IllegalStateException("Bulwark: the row of limit " + name + " is gone");
                }
              }
              List<Claim> handedOver = new ArrayList<>();
              List<T> decided = decide(steps, operations, handedOver, told);
              List<Sql> writes = new ArrayList<>();
              for (Step step : steps.values()) {
                writes.addAll(step.writes(sql));
              }
              writes.addAll(steps.values().iterator().next().counters().writes(sql, limitId));
              writes.addAll(notifications(handedOver));
              Connections.run(
                  em,
                  c -> {
                    Sql.runAll(c, dialect.sendsStatementsTogether(), writes);
                    return null;
                  });
              return decided;
            });
    for (HandOver handOver : told) {
      listener.granted(handOver.requestId(), handOver.fencingToken());
    }
    return answers;
  }

  /**
   * Applies the operations one after the other, each on its key's step; collects every hand-over
   * they made, and those to be told to this JVM's listener after the commit.
   */
  private <T> List<T> decide(
      Map<String, Step> steps,
      List<StepOperation<T>> operations,
      List<Claim> handedOver,
      List<HandOver> told) {
    List<T> decided = new ArrayList<>(operations.size());
    for (StepOperation<T> op : operations) {
      Step step = steps.get(RowIds.key(op.key()));
      step.beginOperation();
      int before = step.handedOver().size();
      decided.add(op.rule().apply(step));
      for (Claim claim : step.handedOver().subList(before, step.handedOver().size())) {
        handedOver.add(claim);
        if (claim.instance().equals(instance) && claim.requestId() != op.self()) {
          told.add(new HandOver(claim.instance(), claim.requestId(), claim.token()));
        }
      }
    }
    return decided;
  }

  /**
   * The steps of the given keys on the limit's locked row, sharing its counters, or null when the
   * limit has no row yet.
   */
  private Map<String, Step> lockAndRead(
      Connection connection, ClaimSql sql, String limitId, List<String> keyHashes)
      throws SQLException {
    Sql lock = sql.lock(limitId);
    Sql read = sql.read(limitId, keyHashes);
    if (!dialect.sendsStatementsTogether()) {
      try (PreparedStatement locking = lock.prepare(connection);
          ResultSet row = locking.executeQuery()) {
        if (!row.next()) {
          return null;
        }
      }
      try (PreparedStatement reading = read.prepare(connection);
          ResultSet rows = reading.executeQuery()) {
        Map<String, Step> steps = steps(rows, limitId, keyHashes);
        if (steps == null) {
          throw new SQLException("Bulwark: the limit's row is gone while locked");
        }
        return steps;
      }
    }
    try (PreparedStatement both = Sql.joined(List.of(lock, read)).prepare(connection)) {
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
        return locked ? steps(rows, limitId, keyHashes) : null;
      }
    }
  }

  /** One step per key from the read's rows (claims in arrival order), or null without a row. */
  private Map<String, Step> steps(ResultSet rows, String limitId, List<String> keyHashes)
      throws SQLException {
    if (!rows.next()) {
      return null;
    }
    long now = Dialect.clock(rows.getObject(1));
    LimitCounters counters = new LimitCounters(rows.getLong(2), rows.getLong(3));
    Map<String, List<Claim>> claims = new LinkedHashMap<>();
    for (String keyHash : keyHashes) {
      claims.put(keyHash, new ArrayList<>());
    }
    int keyColumn = 4 + CLAIM_COLUMN_COUNT;
    do {
      if (rows.getString(4) != null) {
        List<Claim> keyClaims = claims.get(rows.getString(keyColumn));
        if (keyClaims == null) {
          throw new SQLException("Bulwark: the read of a step answered a key it did not ask for");
        }
        keyClaims.add(Claim.read(rows, 4));
      }
    } while (rows.next());
    Map<String, Step> steps = new LinkedHashMap<>();
    claims.forEach(
        (keyHash, keyClaims) ->
            steps.put(keyHash, new Step(limitId, keyHash, instance, now, counters, keyClaims)));
    return steps;
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
   * The statements that announce the hand-overs to other JVMs on PostgreSQL, by NOTIFY on each
   * one's channel, which the database delivers when this transaction commits; its {@link WakeUps}
   * finds them by their mark in any case.
   */
  private List<Sql> notifications(List<Claim> handedOver) {
    if (dialect != Dialect.POSTGRESQL) {
      return List.of();
    }
    Set<String> others = new LinkedHashSet<>();
    for (Claim claim : handedOver) {
      if (!claim.instance().equals(instance)) {
        others.add(claim.instance());
      }
    }
    return others.stream().map(other -> ClaimSql.notify(WakeUps.channel(other))).toList();
  }
}
