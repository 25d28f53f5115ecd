package dev.bulwark;

import java.time.Instant;
import java.util.Optional;

/**
 * One call that holds a bulkhead permit or a lock, as the store records it.
 *
 * @param instance the JVM that holds it: its store instance id ({@code local} on the local store)
 * @param request the request's number within that JVM
 * @param leaseExpiry when the store reclaims it unless renewed, on the store's clock; empty where
 *     leases do not expire (the local store)
 * @param since when it was granted (to a queued request: when it was handed over), on the store's
 *     clock; a renewal of the lease leaves it as it was. Every store of this project records it; it
 *     is empty for a holder granted before its store did (a Redis holder or a JPA claim row from an
 *     earlier version), and on a third-party store that does not record grant times
 */
public record Holder(
    String instance, long request, Optional<Instant> leaseExpiry, Optional<Instant> since) {

  /** A holder of a store that does not record when it was granted. */
  public Holder(String instance, long request, Optional<Instant> leaseExpiry) {
    this(instance, request, leaseExpiry, Optional.empty());
  }
}
