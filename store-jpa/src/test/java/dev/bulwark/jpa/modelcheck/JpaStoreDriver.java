package dev.bulwark.jpa.modelcheck;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bulwark.jpa.JpaStore;
import dev.bulwark.jpa.ModelCheckDatabase;
import dev.bulwark.jpa.modelcheck.JpaStoreContents.ClaimState;
import dev.bulwark.jpa.modelcheck.JpaStoreContents.LimitState;
import dev.bulwark.jpa.setup.DataSourceUnit;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.StoreException;
import dev.bulwark.tck.modelcheck.BatchEntry;
import dev.bulwark.tck.modelcheck.Bounds;
import dev.bulwark.tck.modelcheck.Caller;
import dev.bulwark.tck.modelcheck.CheckedLimit;
import dev.bulwark.tck.modelcheck.ExploredState;
import dev.bulwark.tck.modelcheck.GiveUp;
import dev.bulwark.tck.modelcheck.StoreContents;
import dev.bulwark.tck.modelcheck.StoreDriver;
import dev.bulwark.tck.modelcheck.WakeUp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The system under check: one bulkhead or one lock key of the JPA store on PostgreSQL, used by the
 * scenario's JVMs, each a {@link JpaStore} of its own (its own instance id, listener and
 * transactions) on one persistence unit. What the store does on its own is run as steps: a JVM's
 * look for hand-overs marked for it ({@link JpaStore#deliverWakeUps}, which NOTIFY or the check
 * interval would start) and the cleanup task; their timers are set beyond any check's run.
 *
 * <p>A JVM's renewal can also race a step of another JVM's request: the store's connections ({@link
 * RacingConnections}) commit the renewal, on a connection of its own, after the step's read and
 * before its first write.
 *
 * <p>Wake-ups are the listener calls: a step tells its own JVM's waiters at once after its commit,
 * another JVM's waiters by a mark on their rows, which that JVM's look finds, clears and tells. A
 * listener call made is on its way until the caller acts on it; losing it stands for a look whose
 * commit's reply was lost (the marks cleared, nobody told) or a step whose reply was lost after it
 * handed over to a waiter of its own JVM.
 */
final class JpaStoreDriver implements StoreDriver, AutoCloseable {

  private static final String CLEANUP = "cleanup";
  private static final String LOOK = "look for hand-overs(jvm ";

  private final Bounds bounds;
  private final ModelCheckDatabase database;
  private final HikariDataSource pool;
  private final RacingConnections racing;
  private final StoreUnit unit;
  private final ExecutorService renewer =
      Executors.newSingleThreadExecutor(
          task -> {
            Thread thread = new Thread(task, "model-check-renewer");
            thread.setDaemon(true);
            return thread;
          });
  private final List<JpaStore> jvms = new ArrayList<>();
  private final List<LosingUnitOfWork> transactions = new ArrayList<>();
  private final List<WakeUp> told = new ArrayList<>();
  private final CheckedLimit limit;
  private final String limits;
  private final String claims;

  JpaStoreDriver(Bounds bounds, ModelCheckDatabase database) {
    this.bounds = bounds;
    this.database = database;
    JpaSettings settings = database.settings();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.url());
    config.setUsername(settings.user());
    config.setPassword(settings.password());
    // a step's connection and a renewal's racing it
    config.setMaximumPoolSize(settings.poolSize() + 1);
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    this.pool = new HikariDataSource(config);
    this.racing = new RacingConnections(pool);
    this.unit = DataSourceUnit.open(racing.dataSource(), "model check", settings);
    for (int jvm = 0; jvm < bounds.jvms(); jvm++) {
      LosingUnitOfWork losing = new LosingUnitOfWork(new ResourceLocalUnitOfWork(unit.factory()));
      transactions.add(losing);
      int of = jvm;
      jvms.add(
          JpaStore.on(
              losing,
              unit.dialect(),
              null,
              settings,
              (requestId, token) -> heard(of, requestId, token),
              () -> {}));
    }
    this.limit = new CheckedLimit(bounds);
    this.limits = database.table("limit");
    this.claims = database.table("claim");
  }

  private synchronized void heard(int jvm, long requestId, long token) {
    int request = (int) requestId - 1;
    if (request < 0
        || request >= bounds.requests().size()
        || bounds.requests().get(request).jvm() != jvm) {
      throw new AssertionError("JVM " + jvm + " was told of request " + requestId);
    }
    told.add(new WakeUp(request, token));
  }

  @Override
  public String member(int request) {
    return jvm(request).instance() + ":" + (request + 1);
  }

  @Override
  public int requestOf(String member) {
    for (int r = 0; r < bounds.requests().size(); r++) {
      if (member(r).equals(member)) {
        return r;
      }
    }
    return -1;
  }

  @Override
  public Grant acquire(int request) {
    return limit.acquire(jvm(request).permits(), jvm(request).locks(), request);
  }

  @Override
  public Grant poll(int request) {
    return limit.poll(jvm(request).permits(), jvm(request).locks(), request);
  }

  @Override
  public Grant cancel(int request) {
    return limit.cancel(jvm(request).permits(), jvm(request).locks(), request);
  }

  @Override
  public boolean release(int request) {
    return limit.release(jvm(request).permits(), jvm(request).locks(), request);
  }

  /** The transaction commits, the store reports a failure; it sends no give-up of its own. */
  @Override
  public Optional<GiveUp> losingReply(int request, Caller.Operation operation) {
    Supplier<?> call = call(request, operation);
    LosingUnitOfWork losing = transactions.get(bounds.requests().get(request).jvm());
    losing.loseNextReply();
    try {
      call.get();
      throw new IllegalStateException("the reply of the call was not lost");
    } catch (StoreException expected) {
      if (losing.stillToLose()) {
        throw expected;
      }
      return Optional.empty();
    }
  }

  /** Through the store's batch call, {@code JpaPermits.apply} or {@code JpaLocks.apply}. */
  @Override
  public List<Grant> apply(List<BatchEntry> entries) {
    JpaStore jvm = jvm(entries.get(0).request());
    return limit.apply(jvm.permits(), jvm.locks(), entries);
  }

  @Override
  public int batchSteps(List<BatchEntry> entries) {
    JpaStore jvm = jvm(entries.get(0).request());
    return limit.batchSteps(jvm.permits(), jvm.locks(), entries);
  }

  /**
   * Runs the batch, losing the reply of its transaction number {@code step}: that one commits and
   * the store hears a failure; it sends no give-up of its own.
   */
  @Override
  public Optional<GiveUp> applyLosingReply(List<BatchEntry> entries, int step) {
    LosingUnitOfWork losing =
        transactions.get(bounds.requests().get(entries.get(0).request()).jvm());
    losing.loseReplyOf(step);
    try {
      apply(entries);
      throw new IllegalStateException("the reply of the batch was not lost");
    } catch (StoreException expected) {
      if (losing.stillToLose()) {
        throw expected;
      }
      return Optional.empty();
    }
  }

  @Override
  public void giveUp(int request, GiveUp giveUp) {
    throw new IllegalStateException("the JPA store sends no give-up");
  }

  /** A transaction whose reply was lost is not sent again: the caller gets the failure. */
  @Override
  public boolean resendsLostCalls() {
    return false;
  }

  @Override
  public List<Integer> renew(int jvm, List<Integer> requests) {
    return CheckedLimit.requests(jvms.get(jvm).renew(limit.leases(requests)));
  }

  /** The store's steps run on connections that can commit a renewal inside them. */
  @Override
  public boolean renewsDuringSteps() {
    return true;
  }

  /**
   * Runs the step on this thread; when it is about to write, the renewal runs on a thread of its
   * own (another JVM's transaction, on a connection of its own) and commits, and the step goes on.
   */
  @Override
  public List<Integer> renewingDuring(int jvm, List<Integer> requests, Runnable step) {
    List<Integer> lost = new ArrayList<>();
    Runnable renewal =
        () -> {
          try {
            lost.addAll(renewer.submit(() -> renew(jvm, requests)).get(60, TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while renewing", e);
          } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the renewal racing the step failed", e);
          }
        };
    if (!racing.during(step, renewal)) {
      // the step wrote nothing: the renewal comes after its read all the same
      renewal.run();
    }
    return lost;
  }

  @Override
  public StoreContents read() {
    Connection connection = database.connection();
    try {
      List<LimitState> limitRows = new ArrayList<>();
      try (PreparedStatement query =
              connection.prepareStatement(
                  "SELECT id, kind, name, fencing, next_seq FROM " + limits + " ORDER BY id");
          ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          limitRows.add(
              new LimitState(
                  rows.getString(1),
                  rows.getString(2),
                  rows.getString(3),
                  rows.getLong(4),
                  rows.getLong(5)));
        }
      }
      List<ClaimState> claimRows = new ArrayList<>();
      try (PreparedStatement query =
              connection.prepareStatement(
                  "SELECT id, limit_id, key_hash, instance, request_id, claim_mode, held, seq,"
                      + " expires_at, granted_at, token, notice FROM "
                      + claims
                      + " ORDER BY seq, id");
          ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          claimRows.add(
              new ClaimState(
                  rows.getString(1),
                  rows.getString(2),
                  rows.getString(3),
                  rows.getString(4),
                  rows.getLong(5),
                  rows.getString(6),
                  rows.getBoolean(7),
                  rows.getLong(8),
                  rows.getLong(9),
                  rows.getLong(10),
                  rows.getLong(11),
                  rows.getBoolean(12)));
        }
      }
      connection.commit();
      List<WakeUp> heard;
      synchronized (this) {
        heard = List.copyOf(told);
        told.clear();
      }
      return new JpaStoreContents(limitRows, claimRows, heard);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the store's rows", e);
    }
  }

  @Override
  public StoreContents empty() {
    return JpaStoreContents.EMPTY;
  }

  @Override
  public void restore(StoreContents contents, long nowMillis) {
    JpaStoreContents rows = (JpaStoreContents) contents;
    Connection connection = database.connection();
    try {
      database.setClockMicros(nowMillis * 1000);
      try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + claims)) {
        delete.executeUpdate();
      }
      try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + limits)) {
        delete.executeUpdate();
      }
      try (PreparedStatement insert =
          connection.prepareStatement(
              "INSERT INTO "
                  + limits
                  + " (id, kind, name, fencing, next_seq, rate_first, rate_second)"
                  + " VALUES (?, ?, ?, ?, ?, 0, 0)")) {
        for (LimitState limit : rows.limits()) {
          insert.setString(1, limit.id());
          insert.setString(2, limit.kind());
          insert.setString(3, limit.name());
          insert.setLong(4, limit.fencing());
          insert.setLong(5, limit.nextSeq());
          insert.addBatch();
        }
        insert.executeBatch();
      }
      try (PreparedStatement insert =
          connection.prepareStatement(
              "INSERT INTO "
                  + claims
                  + " (id, limit_id, key_hash, instance, request_id, claim_mode, held, seq,"
                  + " expires_at, granted_at, token, notice)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
        for (ClaimState claim : rows.claims()) {
          insert.setString(1, claim.id());
          insert.setString(2, claim.limitId());
          insert.setString(3, claim.keyHash());
          insert.setString(4, claim.instance());
          insert.setLong(5, claim.requestId());
          insert.setString(6, claim.mode());
          insert.setBoolean(7, claim.held());
          insert.setLong(8, claim.seq());
          insert.setLong(9, claim.expiresAt());
          insert.setLong(10, claim.grantedAt());
          insert.setLong(11, claim.token());
          insert.setBoolean(12, claim.notice());
          insert.addBatch();
        }
        insert.executeBatch();
      }
      connection.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write the store's rows back", e);
    }
    synchronized (this) {
      told.clear();
    }
  }

  @Override
  public void expire(String structure) {
    throw new IllegalStateException("the JPA store's rows do not expire on their own");
  }

  /**
   * The cleanup task, when a row's lease ran out; a live JVM's look for hand-overs, when one to it
   * is marked (a look that finds none changes nothing).
   */
  @Override
  public List<String> ownWork(ExploredState at) {
    JpaStoreContents rows = (JpaStoreContents) at.store();
    List<String> work = new ArrayList<>();
    if (rows.anyExpired(at.model().now())) {
      work.add(CLEANUP);
    }
    for (int jvm = 0; jvm < jvms.size(); jvm++) {
      if (!at.model().isDead(jvm) && rows.noticeFor(jvms.get(jvm).instance())) {
        work.add(LOOK + jvm + ")");
      }
    }
    return work;
  }

  @Override
  public void runOwnWork(String work) {
    if (work.equals(CLEANUP)) {
      jvms.get(0).cleanUpNow();
    } else if (work.startsWith(LOOK)) {
      int jvm = Integer.parseInt(work.substring(LOOK.length(), work.length() - 1));
      jvms.get(jvm).deliverWakeUps();
    } else {
      throw new IllegalArgumentException(work);
    }
  }

  @Override
  public void setClock(long nowMillis) {
    try {
      database.setClockMicros(nowMillis * 1000);
      database.connection().commit();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot set the clock", e);
    }
  }

  @Override
  public List<WakeUp> wakeUps(StoreContents contents) {
    return ((JpaStoreContents) contents).told();
  }

  /** Every step deletes its key's expired rows before it decides anything. */
  @Override
  public boolean everyStepReclaims() {
    return true;
  }

  @Override
  public void close() {
    for (JpaStore store : jvms) {
      store.close();
    }
    unit.close();
    pool.close();
    renewer.shutdownNow();
  }

  private JpaStore jvm(int request) {
    return jvms.get(bounds.requests().get(request).jvm());
  }
}
