package dev.bulwark.core.engine;

import dev.bulwark.spi.BulwarkStore;
import java.time.Duration;

/**
 * What a limiter needs of the engine beyond its own definition: the store, the JVM's waiters and
 * lease renewer (null when leases do not expire), and the failure policy.
 */
record StoreAccess(
    BulwarkStore store, Waiters waiters, LeaseRenewer renewer, FailurePolicy failurePolicy) {

  Duration wakeUpCheckInterval() {
    return store.wakeUpCheckInterval();
  }
}
