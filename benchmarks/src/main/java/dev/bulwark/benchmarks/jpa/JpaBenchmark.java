package dev.bulwark.benchmarks.jpa;

import dev.bulwark.LockMode;
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
 * Throughput against a real PostgreSQL, 8 client threads, nobody waiting and nothing rejected: the
 * JDBC floor (one row-locking transaction, on the row all callers share or on a row of the thread's
 * own), Bulwark's JPA store and Bucket4j's PostgreSQL rate limiter. Each library's pool is opened
 * only by the benchmarks that use it, once per trial. Compare a variant with the floor of the same
 * run.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(8)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class JpaBenchmark {

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
  public static class Bulwark {
    BulwarkOnJpa bulwark;

    @Setup(Level.Trial)
    public void open() {
      bulwark = new BulwarkOnJpa();
    }

    @TearDown(Level.Trial)
    public void close() {
      bulwark.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Bucket4j {
    Bucket4jOnPostgres bucket4j;

    @Setup(Level.Trial)
    public void open() {
      bucket4j = new Bucket4jOnPostgres();
    }

    @TearDown(Level.Trial)
    public void close() {
      bucket4j.close();
    }
  }

  /** A benchmark thread's own row and lock key, so that those never contend. */
  @State(Scope.Thread)
  public static class Caller {
    int row;
    String key;

    @Setup(Level.Trial)
    public void name(ThreadParams thread) {
      row = 1 + thread.getThreadIndex() % JdbcFloor.OWN_ROWS;
      key = "thread-" + thread.getThreadIndex();
    }
  }

  /** A rejection is far cheaper than a grant: a run that rejects measures the wrong thing. */
  private static boolean granted(boolean granted, String what) {
    if (!granted) {
      throw new IllegalStateException(what + " rejected: the limit is not high enough");
    }
    return true;
  }

  @Benchmark
  public long floorSharedRow(Floor floor) {
    return floor.floor.transaction(JdbcFloor.SHARED_ROW);
  }

  @Benchmark
  public long floorOwnRow(Floor floor, Caller caller) {
    return floor.floor.transaction(caller.row);
  }

  @Benchmark
  public void bulwarkBulkhead(Bulwark bulwark) {
    bulwark.bulwark.bulkhead();
  }

  @Benchmark
  public boolean bulwarkRateLimit(Bulwark bulwark) {
    return granted(bulwark.bulwark.rateLimit(), "Bulwark rate limit");
  }

  @Benchmark
  public long bulwarkWriteLock(Bulwark bulwark, Caller caller) {
    return bulwark.bulwark.lock(caller.key, LockMode.WRITE);
  }

  @Benchmark
  public boolean bucket4jTryConsume(Bucket4j bucket4j) {
    return granted(bucket4j.bucket4j.tryConsume(), "Bucket4j bucket");
  }
}
