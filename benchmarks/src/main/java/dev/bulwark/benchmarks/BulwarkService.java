package dev.bulwark.benchmarks;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;

/** The same method under each Bulwark binding, on the default store ({@code local}). */
@ApplicationScoped
public class BulwarkService {

  @DistributedBulkhead(value = 10)
  public long bulkhead(long current) {
    return current + 1;
  }

  /** One permit per nanosecond (the finest rate a definition allows): never rejects here. */
  @DistributedRateLimit(value = 1_000_000_000, window = 1, windowUnit = ChronoUnit.SECONDS)
  public long rateLimit(long current) {
    return current + 1;
  }

  /** An exclusive lock on the caller's own key: uncontended whatever the thread count. */
  @DistributedLock(name = "accounts")
  public long lock(@LockKey String account, long current) {
    return current + 1;
  }

  /**
   * The same lock, failing fast instead of waiting up to the default 10 s when the key is taken.
   */
  @DistributedLock(name = "accounts-no-wait", waitingTime = 0)
  public long lockNoWait(@LockKey String account, long current) {
    return current + 1;
  }
}
