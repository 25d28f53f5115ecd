package dev.bulwark.core.engine;

import dev.bulwark.StoreUnavailableException;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a limiter needs of the engine beyond its own definition: the store, the JVM's waiters and
 * lease renewer (null when leases do not expire), and the failure policy.
 */
record StoreAccess(
    BulwarkStore store, Waiters waiters, LeaseRenewer renewer, FailurePolicy failurePolicy) {

  private static final Logger LOG = Logger.getLogger(StoreAccess.class.getName());

  Duration wakeUpCheckInterval() {
    return store.wakeUpCheckInterval();
  }

  /**
   * Applies the failure policy to a store call that failed: {@code fail-closed} throws, {@code
   * fail-open} counts the call and lets it through.
   *
   * @param limit what failed, for the exception's message ({@code "Bulkhead 'x'"})
   * @return true under {@code local}: the caller enforces its limit on the local fallback instead
   */
  boolean fallBackLocally(StoreException e, LimitStats stats, String limitName, String limit) {
    stats.onStoreFailure();
    switch (failurePolicy) {
      case FAIL_OPEN:
        stats.onPassedThrough();
        LOG.log(Level.FINE, "Bulwark: store unavailable, letting a call through", e);
        return false;
      case LOCAL:
        return true;
      default:
        throw new StoreUnavailableException(
            limitName, limit + ": store unavailable: " + e.getMessage(), e);
    }
  }
}
