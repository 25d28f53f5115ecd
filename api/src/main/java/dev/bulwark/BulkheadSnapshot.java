package dev.bulwark;

import java.util.List;

/**
 * A bulkhead as the store sees it at one instant, across every JVM that shares the store.
 *
 * @param limit the bulkhead's value
 * @param holders the live holders (a holder whose lease ran out is not one)
 * @param queued requests waiting for a permit, with a live lease
 * @param waiting the first of those requests in queue order, at most {@link #WAITING_LISTED}: each
 *     with its JVM, request and lease expiry, and as {@link Holder#since()} when it joined the
 *     queue where the store records that (the local store does; Redis and JPA record grant times
 *     only). Empty on a store that does not list its queue
 */
public record BulkheadSnapshot(
    String name, int limit, List<Holder> holders, int queued, List<Holder> waiting) {

  /** How many waiting requests a snapshot lists at most: an operator's view, not an export. */
  public static final int WAITING_LISTED = 100;

  public BulkheadSnapshot {
    holders = List.copyOf(holders);
    waiting = List.copyOf(waiting);
  }

  /** A snapshot that counts its waiting requests without listing them. */
  public BulkheadSnapshot(String name, int limit, List<Holder> holders, int queued) {
    this(name, limit, holders, queued, List.of());
  }

  /** Permits a call could take now (never negative, also when a lowered limit is exceeded). */
  public int available() {
    return Math.max(0, limit - holders.size());
  }
}
