package dev.bulwark.benchmarks.jpa;

import dev.bulwark.RateLimitExceededException;
import dev.bulwark.benchmarks.GuardedContainer;
import dev.bulwark.benchmarks.GuardedService;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Bulwark on the JPA store (PostgreSQL) as a user meets it: {@link GuardedService}'s methods called
 * through the real interceptors on Weld, 8 threads in one JVM (1 in the {@code …OneThread}
 * variants), next to the JDBC floor of the same run ({@code SELECT … FOR UPDATE}, {@code UPDATE},
 * {@code COMMIT}: on the row all threads share, as every operation of a limit or of a lock name
 * locks that limit's or name's row; the write lock is also shown against the same transaction on a
 * row of the thread's own, the floor of keys that never meet) and to Bucket4j's PostgreSQL rate
 * limiter. The store's pool has as many connections as the floor's.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(8)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class JpaThroughInterceptors {

  /** Share of the read-mostly calls that take the write lock instead. */
  static final int WRITES_PER_HUNDRED = 5;

  static final long TIGHT_PER_SECOND = 1_000;

  @State(Scope.Benchmark)
  public static class Floor {
    JdbcFloor floor;

    @Setup(Level.Trial)
    public void open() {
      floor = new JdbcFloor();
    }

    @TearDown(Level.Trial)
    public void close() {
      floor.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Guarded {
    GuardedContainer container;
    GuardedService service;

    @Setup(Level.Trial)
    public void boot() {
      // a schema of its own, created afresh: another build's tables may have other columns
      String schema = PostgresTarget.freshSchema(PostgresTarget.SCHEMA + "_icpt");
      container =
          GuardedContainer.boot(
              Map.of(
                  "bulwark.store",
                  "jpa",
                  "bulwark.jpa.url",
                  PostgresTarget.schemaUrl(schema),
                  "bulwark.jpa.user",
                  PostgresTarget.USER,
                  "bulwark.jpa.password",
                  PostgresTarget.PASSWORD,
                  "bulwark.jpa.schema-generation",
                  "create",
                  "bulwark.jpa.pool-size",
                  String.valueOf(PostgresTarget.POOL_SIZE)));
      service = container.service();
    }

    @TearDown(Level.Trial)
    public void close() {
      container.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Bucket4j {
    Bucket4jOnPostgres hot;
    Bucket4jOnPostgres tight;

    @Setup(Level.Trial)
    public void open() {
      hot = new Bucket4jOnPostgres();
      tight = new Bucket4jOnPostgres(2, TIGHT_PER_SECOND);
    }

    @TearDown(Level.Trial)
    public void close() {
      hot.close();
      tight.close();
    }
  }

  /** A benchmark thread's sequence, random choices and own floor row. */
  @State(Scope.Thread)
  public static class Caller {
    long value;
    SplittableRandom random;
    int row;

    @Setup(Level.Trial)
    public void name(ThreadParams thread) {
      random = new SplittableRandom(thread.getThreadIndex());
      row = 1 + thread.getThreadIndex() % JdbcFloor.OWN_ROWS;
    }

    int lockKey() {
      return random.nextInt(GuardedService.LOCK_KEYS);
    }

    boolean writes() {
      return random.nextInt(100) < WRITES_PER_HUNDRED;
    }
  }

  // ---- the floors ----

  @Benchmark
  public long floorSharedRow(Floor floor) {
    return floor.floor.transaction(JdbcFloor.SHARED_ROW);
  }

  @Benchmark
  public long floorOwnRow(Floor floor, Caller caller) {
    return floor.floor.transaction(caller.row);
  }

  @Benchmark
  @Threads(1)
  public long floorSharedRowOneThread(Floor floor) {
    return floor.floor.transaction(JdbcFloor.SHARED_ROW);
  }

  // ---- Bulwark through its interceptors ----

  @Benchmark
  public long bulkhead(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.bulkhead(caller.value);
  }

  @Benchmark
  public long writeLock(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.writeLock("key-" + caller.lockKey(), caller.value);
  }

  @Benchmark
  public long readMostly(Guarded guarded, Caller caller) {
    return caller.value =
        caller.writes()
            ? guarded.service.write("read-mostly", caller.value)
            : guarded.service.read("read-mostly", caller.value);
  }

  @Benchmark
  public long rateHot(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.hotRate(caller.value);
  }

  @Benchmark
  public long rateTight(Guarded guarded, Caller caller) {
    try {
      return caller.value = guarded.service.tightRate(caller.value);
    } catch (RateLimitExceededException rejected) {
      return -1;
    }
  }

  @Benchmark
  @Threads(1)
  public long bulkheadOneThread(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.bulkhead(caller.value);
  }

  @Benchmark
  @Threads(1)
  public long writeLockOneThread(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.writeLock("key-" + caller.lockKey(), caller.value);
  }

  @Benchmark
  @Threads(1)
  public long rateHotOneThread(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.hotRate(caller.value);
  }

  // ---- the peer, called directly ----

  @Benchmark
  public boolean bucket4jRateHot(Bucket4j bucket4j) {
    return bucket4j.hot.tryConsume();
  }

  @Benchmark
  public boolean bucket4jRateTight(Bucket4j bucket4j) {
    return bucket4j.tight.tryConsume();
  }
}
