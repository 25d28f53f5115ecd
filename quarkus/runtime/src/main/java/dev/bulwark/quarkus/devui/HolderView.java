package dev.bulwark.quarkus.devui;

import dev.bulwark.Holder;
import java.time.Instant;

/**
 * One holder of a permit or lock as the Dev UI shows it.
 *
 * @param jvm the store instance id of the JVM that holds it
 * @param request the request's number within that JVM
 * @param since when it was granted, on the store's clock; null where the store did not record it
 * @param leaseExpiry when the store reclaims it unless renewed; null where leases do not expire
 */
public record HolderView(String jvm, long request, String since, String leaseExpiry) {

  static HolderView of(Holder holder) {
    return new HolderView(
        holder.instance(),
        holder.request(),
        holder.since().map(Instant::toString).orElse(null),
        holder.leaseExpiry().map(Instant::toString).orElse(null));
  }
}
