package dev.bulwark.benchmarks.redis;

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
import org.redisson.api.RRateLimiter;
import org.redisson.api.RReadWriteLock;
import redis.clients.jedis.Jedis;

/**
 * Bulwark on the Redis store as a user meets it: {@link GuardedService}'s methods called through
 * the real interceptors on Weld, 8 threads in one JVM (1 in the {@code …OneThread} variants), next
 * to the Jedis round-trip floor of the same run and to Redisson and Bucket4j where they have the
 * primitive (called directly: they have no interceptors). Read each variant as a ratio to its
 * floor: two round trips for an acquire plus a release, one for a rate-limit call.
 *
 * <p>The store's keys start with {@value #PREFIX}, and every key under it is deleted before the
 * container boots, so that no permit or rate state of an earlier fork is left over.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(8)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class RedisThroughInterceptors {

  static final String PREFIX = "bench:icpt:";

  /** Share of the read-mostly calls that take the write lock instead. */
  static final int WRITES_PER_HUNDRED = 5;

  static final long TIGHT_PER_SECOND = 1_000;

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
  public static class Guarded {
    GuardedContainer container;
    GuardedService service;

    @Setup(Level.Trial)
    public void boot() {
      try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
        KeySweep.delete(redis, PREFIX + "*");
      }
      container =
          GuardedContainer.boot(
              RedisTarget.withRelease(
                  Map.of(
                      "bulwark.store",
                      "redis",
                      "bulwark.redis.url",
                      RedisTarget.URL,
                      "bulwark.redis.key-prefix",
                      PREFIX)));
      service = container.service();
      service.bulkhead(0);
      try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
        if (KeySweep.count(redis, PREFIX + "*") == 0) {
          throw new IllegalStateException("no key under " + PREFIX + ": the store is not Redis");
        }
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      container.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Redisson {
    RedissonPeer redisson;
    RReadWriteLock[] keys;
    RReadWriteLock readMostly;
    RRateLimiter tight;

    @Setup(Level.Trial)
    public void open() {
      redisson = new RedissonPeer(8);
      keys = new RReadWriteLock[GuardedService.LOCK_KEYS];
      for (int k = 0; k < keys.length; k++) {
        keys[k] = redisson.readWriteLock("key-" + k);
      }
      readMostly = redisson.readWriteLock("read-mostly");
      tight = redisson.rateLimiter("rate-tight", TIGHT_PER_SECOND);
    }

    @TearDown(Level.Trial)
    public void close() {
      redisson.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Bucket4j {
    Bucket4jPeer hot;
    Bucket4jPeer tight;

    @Setup(Level.Trial)
    public void open() {
      hot = new Bucket4jPeer();
      tight = new Bucket4jPeer("bench:bucket4j:rate-tight", TIGHT_PER_SECOND);
    }

    @TearDown(Level.Trial)
    public void close() {
      hot.close();
      tight.close();
    }
  }

  /** A benchmark thread's sequence, random choices and key for the floor. */
  @State(Scope.Thread)
  public static class Caller {
    long value;
    SplittableRandom random;
    String floorKey;

    @Setup(Level.Trial)
    public void name(ThreadParams thread) {
      random = new SplittableRandom(thread.getThreadIndex());
      floorKey = "bench:thread-" + thread.getThreadIndex();
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
  public Object floorOneRoundTrip(Floor floor, Caller caller) {
    return floor.floor.oneRoundTrip(caller.floorKey);
  }

  @Benchmark
  public Object floorTwoRoundTrips(Floor floor, Caller caller) {
    return floor.floor.twoRoundTrips(caller.floorKey);
  }

  @Benchmark
  @Threads(1)
  public Object floorOneRoundTripOneThread(Floor floor, Caller caller) {
    return floor.floor.oneRoundTrip(caller.floorKey);
  }

  @Benchmark
  @Threads(1)
  public Object floorTwoRoundTripsOneThread(Floor floor, Caller caller) {
    return floor.floor.twoRoundTrips(caller.floorKey);
  }

  // ---- Bulwark through its interceptors ----

  /** {@code @DistributedBulkhead(value = 8)}: acquire, the method, release. */
  @Benchmark
  public long bulkhead(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.bulkhead(caller.value);
  }

  /** {@code @DistributedLock} WRITE on one of 64 keys. */
  @Benchmark
  public long writeLock(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.writeLock("key-" + caller.lockKey(), caller.value);
  }

  /** One key, 95 % of calls READ and 5 % WRITE. */
  @Benchmark
  public long readMostly(Guarded guarded, Caller caller) {
    return caller.value =
        caller.writes()
            ? guarded.service.write("read-mostly", caller.value)
            : guarded.service.read("read-mostly", caller.value);
  }

  /** {@code @DistributedRateLimit} of 10⁹ a second on one name: every call granted. */
  @Benchmark
  public long rateHot(Guarded guarded, Caller caller) {
    return caller.value = guarded.service.hotRate(caller.value);
  }

  /** {@code @DistributedRateLimit} of 1,000 a second: most calls rejected. */
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

  // ---- the peers, called directly ----

  /** {@code RSemaphore} of 8 permits: acquire (waiting up to 10 s) and release. */
  @Benchmark
  public boolean redissonSemaphore(Redisson redisson) throws InterruptedException {
    boolean taken = redisson.redisson.acquireSemaphore(10_000);
    if (taken) {
      redisson.redisson.releaseSemaphore();
    }
    return taken;
  }

  @Benchmark
  public void redissonWriteLock(Redisson redisson, Caller caller) {
    redisson.redisson.writeLock(redisson.keys[caller.lockKey()]);
  }

  @Benchmark
  public void redissonReadMostly(Redisson redisson, Caller caller) {
    if (caller.writes()) {
      redisson.redisson.writeLock(redisson.readMostly);
    } else {
      redisson.redisson.readLock(redisson.readMostly);
    }
  }

  @Benchmark
  public boolean redissonRateHot(Redisson redisson) {
    return redisson.redisson.rateLimit();
  }

  @Benchmark
  public boolean redissonRateTight(Redisson redisson) {
    return redisson.tight.tryAcquire();
  }

  @Benchmark
  public boolean bucket4jRateHot(Bucket4j bucket4j) {
    return bucket4j.hot.tryConsume();
  }

  @Benchmark
  public boolean bucket4jRateTight(Bucket4j bucket4j) {
    return bucket4j.tight.tryConsume();
  }
}
