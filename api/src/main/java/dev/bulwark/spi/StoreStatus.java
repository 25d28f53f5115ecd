package dev.bulwark.spi;

import java.util.Map;

/**
 * What a store knows about its own connection, for a readiness check: whether it can be reached
 * now, and details an operator reads (no secrets).
 *
 * @param reachable false when the store knows it cannot serve calls now (connection lost, its
 *     wake-up subscription down)
 * @param details names and values to show, e.g. {@code wake-up-subscription=up}
 */
public record StoreStatus(boolean reachable, Map<String, String> details) {

  /** A store that has nothing to report beyond being there. */
  public static final StoreStatus REACHABLE = new StoreStatus(true, Map.of());

  public StoreStatus {
    details = Map.copyOf(details);
  }
}
