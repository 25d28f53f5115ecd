package dev.bulwark.benchmarks.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RSemaphore;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The peer: Redisson's semaphores, read-write lock and rate limiter on the same Redis, with its
 * default connection pool and codec.
 */
public final class RedissonPeer implements AutoCloseable {

  static final String PREFIX = "bench:redisson:";

  /** The permit lease of the expirable semaphore: as long as Bulwark's default lease. */
  static final long LEASE_SECONDS = 30;

  private final RedissonClient client;
  private final RPermitExpirableSemaphore expirable;
  private final RSemaphore semaphore;
  private final RRateLimiter rateLimiter;

  /** Semaphores with {@code permits} permits; the rate limiter never limits. */
  public RedissonPeer(int permits) {
    Config config = new Config();
    config.useSingleServer().setAddress(RedisTarget.URL);
    client = Redisson.create(config);
    expirable = client.getPermitExpirableSemaphore(PREFIX + "expirable");
    semaphore = client.getSemaphore(PREFIX + "semaphore");
    rateLimiter = client.getRateLimiter(PREFIX + "rate");
    // a fresh state each time: left-over permits of an earlier run would change the limit
    expirable.delete();
    semaphore.delete();
    rateLimiter.delete();
    expirable.trySetPermits(permits);
    semaphore.trySetPermits(permits);
    rateLimiter.trySetRate(RateType.OVERALL, 1_000_000_000L, Duration.ofSeconds(1));
  }

  /** Lease-bounded permit, taken without waiting, released at once. */
  public String expirableSemaphore() throws InterruptedException {
    String permit = expirable.tryAcquire(0, LEASE_SECONDS, TimeUnit.SECONDS);
    expirable.release(permit);
    return permit;
  }

  /** Waits up to {@code waitMillis} for a lease-bounded permit; null when none came. */
  public String acquireExpirable(long waitMillis) throws InterruptedException {
    return expirable.tryAcquire(waitMillis, LEASE_SECONDS * 1000, TimeUnit.MILLISECONDS);
  }

  public void releaseExpirable(String permit) {
    expirable.release(permit);
  }

  /** Plain permit (no lease: a crashed holder keeps it), taken without waiting, released. */
  public boolean semaphore() {
    boolean taken = semaphore.tryAcquire();
    semaphore.release();
    return taken;
  }

  public boolean acquireSemaphore(long waitMillis) throws InterruptedException {
    return semaphore.tryAcquire(Duration.ofMillis(waitMillis));
  }

  public void releaseSemaphore() {
    semaphore.release();
  }

  /** A fresh rate limiter of {@code perSecond} calls a second, OVERALL, named {@code name}. */
  public RRateLimiter rateLimiter(String name, long perSecond) {
    RRateLimiter limiter = client.getRateLimiter(PREFIX + name);
    limiter.delete();
    limiter.trySetRate(RateType.OVERALL, perSecond, Duration.ofSeconds(1));
    return limiter;
  }

  public RReadWriteLock readWriteLock(String key) {
    return client.getReadWriteLock(PREFIX + "rw:" + key);
  }

  /** Write lock with Redisson's watchdog (its lease renewal), then unlock. */
  public void writeLock(RReadWriteLock lock) {
    lock.writeLock().lock();
    lock.writeLock().unlock();
  }

  public void readLock(RReadWriteLock lock) {
    lock.readLock().lock();
    lock.readLock().unlock();
  }

  public boolean rateLimit() {
    return rateLimiter.tryAcquire();
  }

  @Override
  public void close() {
    client.shutdown();
  }
}
