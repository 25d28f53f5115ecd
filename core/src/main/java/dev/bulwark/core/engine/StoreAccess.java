package dev.bulwark.core.engine;

import dev.bulwark.spi.BulwarkStore;
import java.time.Duration;

/**
 * What a store link needs of the engine beyond its own definition: the store, the JVM's waiters,
 * the lease renewer (null when the store's leases do not expire) and the thread asynchronous calls
 * wait on.
 */
record StoreAccess(
    BulwarkStore store, Waiters waiters, LeaseRenewer renewer, AsyncScheduler async) {

  Duration wakeUpCheckInterval() {
    return store.wakeUpCheckInterval();
  }
}
