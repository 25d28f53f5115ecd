package dev.bulwark;

import java.util.List;

/**
 * A bulkhead as the store sees it at one instant, across every JVM that shares the store.
 *
 * @param limit the bulkhead's value
 * @param holders the live holders (a holder whose lease ran out is not one)
 * @param queued requests waiting for a permit, with a live lease
 */
public record BulkheadSnapshot(String name, int limit, List<Holder> holders, int queued) {

  public BulkheadSnapshot {
    holders = List.copyOf(holders);
  }

  /** Permits a call could take now (never negative, also when a lowered limit is exceeded). */
  public int available() {
    return Math.max(0, limit - holders.size());
  }
}
