package dev.bulwark.benchmarks;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;

/**
 * The same trivial method under each of the guards that the store benchmarks run through the
 * interceptors (a shared store chosen by configuration, not by these annotations). The names start
 * with {@code bench-} so that their keys or rows never meet an application's.
 */
@ApplicationScoped
public class GuardedService {

  /** How many keys the write lock spreads over: 8 threads meet on one now and then. */
  public static final int LOCK_KEYS = 64;

  /** Permits of the bulkhead: as many as benchmark threads, so nobody needs to wait. */
  @DistributedBulkhead(
      name = "bench-bulkhead-8",
      value = 8,
      waitingTime = 10,
      waitingTimeUnit = ChronoUnit.SECONDS)
  public long bulkhead(long current) {
    return current + 1;
  }

  /** A write lock on one of {@link #LOCK_KEYS} keys. */
  @DistributedLock(name = "bench-keys", mode = LockMode.WRITE)
  public long writeLock(@LockKey String key, long current) {
    return current + 1;
  }

  /** A read lock on a key that {@link #write} also locks, now and then. */
  @DistributedLock(name = "bench-read-mostly", mode = LockMode.READ)
  public long read(@LockKey String key, long current) {
    return current + 1;
  }

  /** The write lock on {@link #read}'s key. */
  @DistributedLock(name = "bench-read-mostly", mode = LockMode.WRITE)
  public long write(@LockKey String key, long current) {
    return current + 1;
  }

  /** One permit per nanosecond, the finest rate a definition allows: nothing is rejected. */
  @DistributedRateLimit(
      name = "bench-rate-hot",
      value = 1_000_000_000,
      window = 1,
      windowUnit = ChronoUnit.SECONDS)
  public long hotRate(long current) {
    return current + 1;
  }

  /** 1,000 calls a second: far fewer than the callers ask, so most calls are rejected. */
  @DistributedRateLimit(
      name = "bench-rate-tight",
      value = 1_000,
      window = 1,
      windowUnit = ChronoUnit.SECONDS)
  public long tightRate(long current) {
    return current + 1;
  }
}
