package dev.bulwark.core.chain;

import dev.bulwark.core.batch.Batches;
import dev.bulwark.core.lease.LeaseRenewer;
import dev.bulwark.core.waiting.AsyncScheduler;
import dev.bulwark.core.waiting.Waiters;
import dev.bulwark.spi.BulwarkStore;
import java.time.Duration;

/**
 * What a store link needs of the engine beyond its own definition: the store, the JVM's waiters,
 * the lease renewer (null when the store's leases do not expire) and the thread asynchronous calls
 * wait on, the engine's batch batch queues (null when the store does not batch: calls go one by
 * one), and whether a release is posted to its batch queue rather than awaited ({@code
 * bulwark.release=posted}).
 */
public record StoreAccess(
    BulwarkStore store,
    Waiters waiters,
    LeaseRenewer renewer,
    AsyncScheduler async,
    Batches batches,
    boolean postsReleases) {

  /** Whether a limit's operations go through a batch queue of {@link #batches()}. */
  public boolean batched() {
    return batches != null;
  }

  public Duration wakeUpCheckInterval() {
    return store.wakeUpCheckInterval();
  }

  public long wakeUpEpoch() {
    return store.wakeUpEpoch();
  }
}
