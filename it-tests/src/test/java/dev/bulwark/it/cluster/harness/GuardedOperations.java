package dev.bulwark.it.cluster.harness;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;

/**
 * The bean every worker JVM guards: one method per primitive, each running the body the worker
 * hands in (which records entry and exit). The limits are named so the tests set them per run
 * through config ({@code bulwark.bulkhead.it-cluster-bulkhead.value} …); the members below are only
 * defaults.
 */
@ApplicationScoped
public class GuardedOperations {

  public static final String BULKHEAD = "it-cluster-bulkhead";
  public static final String RATE_LIMIT = "it-cluster-rate";
  public static final String LOCK = "it-cluster-lock";

  /** Limits of their own for the warm-up before the start, so it leaves no trace in the above. */
  public static final String WARM_UP_BULKHEAD = "it-cluster-warm-up-bulkhead";

  public static final String WARM_UP_RATE_LIMIT = "it-cluster-warm-up-rate";
  public static final String WARM_UP_LOCK = "it-cluster-warm-up-lock";

  @DistributedBulkhead(name = BULKHEAD, value = 5)
  public void bulkhead(Runnable body) {
    body.run();
  }

  @DistributedRateLimit(name = RATE_LIMIT, value = 50)
  public void rateLimited(Runnable body) {
    body.run();
  }

  @DistributedLock(
      name = LOCK,
      mode = LockMode.READ,
      waitingTime = 10,
      waitingTimeUnit = ChronoUnit.SECONDS)
  public void read(@LockKey String key, Runnable body) {
    body.run();
  }

  @DistributedLock(
      name = LOCK,
      mode = LockMode.WRITE,
      waitingTime = 10,
      waitingTimeUnit = ChronoUnit.SECONDS)
  public void write(@LockKey String key, Runnable body) {
    body.run();
  }

  @DistributedBulkhead(name = WARM_UP_BULKHEAD, value = 2, waitingTime = 10_000)
  public void warmUpBulkhead(Runnable body) {
    body.run();
  }

  @DistributedRateLimit(name = WARM_UP_RATE_LIMIT, value = 1_000_000)
  public void warmUpRateLimited() {}

  @DistributedLock(name = WARM_UP_LOCK, mode = LockMode.WRITE)
  public void warmUpWrite(@LockKey String key) {}

  @DistributedLock(name = WARM_UP_LOCK, mode = LockMode.READ)
  public void warmUpRead(@LockKey String key) {}
}
