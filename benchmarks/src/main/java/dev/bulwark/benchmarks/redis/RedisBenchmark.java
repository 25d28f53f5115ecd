package dev.bulwark.benchmarks.redis;

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
import org.redisson.api.RReadWriteLock;

/**
 * Throughput against a real Redis, 8 client threads, nobody waiting and nothing rejected: the Jedis
 * floor (one and two EVALSHA round trips), Bulwark's Redis store and the peers (Redisson,
 * Bucket4j). Each library's client is opened only by the benchmarks that use it, once per trial.
 * Compare a variant with the floor of the same run: the one-round-trip floor for a rate limit, the
 * two-round-trip floor for acquire plus release.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(8)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class RedisBenchmark {

  @State(Scope.Benchmark)
  public static class Floor {
    JedisFloor floor;

    @Setup(Level.Trial)
    public void open() {
      floor = new JedisFloor();
    }

    @TearDown(Level.Trial)
    public void close() {
      floor.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Bulwark {
    BulwarkOnRedis bulwark;

    @Setup(Level.Trial)
    public void open() {
      bulwark = new BulwarkOnRedis();
    }

    @TearDown(Level.Trial)
    public void close() {
      bulwark.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Redisson {
    RedissonPeer redisson;

    @Setup(Level.Trial)
    public void open() {
      // as many permits as Bulwark's bulkhead: uncontended
      redisson = new RedissonPeer(1_000_000);
    }

    @TearDown(Level.Trial)
    public void close() {
      redisson.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Bucket4j {
    Bucket4jPeer bucket4j;

    @Setup(Level.Trial)
    public void open() {
      bucket4j = new Bucket4jPeer();
    }

    @TearDown(Level.Trial)
    public void close() {
      bucket4j.close();
    }
  }

  /** A benchmark thread's own key, so write locks never contend; READ shares one key. */
  @State(Scope.Thread)
  public static class Caller {
    static final String SHARED = "shared";

    String key;
    RReadWriteLock redissonOwn;
    RReadWriteLock redissonShared;

    @Setup(Level.Trial)
    public void name(ThreadParams thread) {
      key = "bench:thread-" + thread.getThreadIndex();
    }

    RReadWriteLock redissonOwn(RedissonPeer redisson) {
      if (redissonOwn == null) {
        redissonOwn = redisson.readWriteLock(key);
      }
      return redissonOwn;
    }

    RReadWriteLock redissonShared(RedissonPeer redisson) {
      if (redissonShared == null) {
        redissonShared = redisson.readWriteLock(SHARED);
      }
      return redissonShared;
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
  public Object floorOneRoundTrip(Floor floor, Caller caller) {
    return floor.floor.oneRoundTrip(caller.key);
  }

  @Benchmark
  public Object floorTwoRoundTrips(Floor floor, Caller caller) {
    return floor.floor.twoRoundTrips(caller.key);
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
  public long bulwarkReadLock(Bulwark bulwark) {
    return bulwark.bulwark.lock(Caller.SHARED, LockMode.READ);
  }

  @Benchmark
  public String redissonPermitExpirableSemaphore(Redisson redisson) throws InterruptedException {
    return redisson.redisson.expirableSemaphore();
  }

  @Benchmark
  public boolean redissonSemaphore(Redisson redisson) {
    return granted(redisson.redisson.semaphore(), "Redisson semaphore");
  }

  @Benchmark
  public void redissonWriteLock(Redisson redisson, Caller caller) {
    redisson.redisson.writeLock(caller.redissonOwn(redisson.redisson));
  }

  @Benchmark
  public void redissonReadLock(Redisson redisson, Caller caller) {
    redisson.redisson.readLock(caller.redissonShared(redisson.redisson));
  }

  @Benchmark
  public boolean redissonRateLimiter(Redisson redisson) {
    return granted(redisson.redisson.rateLimit(), "Redisson rate limiter");
  }

  @Benchmark
  public boolean bucket4jTryConsume(Bucket4j bucket4j) {
    return granted(bucket4j.bucket4j.tryConsume(), "Bucket4j bucket");
  }
}
