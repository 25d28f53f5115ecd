package dev.bulwark.cdi;

import jakarta.interceptor.Interceptor;

/**
 * Bulwark's interceptors run inside MicroProfile Fault Tolerance's (PLATFORM_AFTER + 10 in
 * SmallRye, + 15 on Payara, up to + 50), so {@code @Retry} retries a rejection and
 * {@code @Fallback} handles it. Among themselves, on a method with several bindings: the rate limit
 * first (the cheapest rejection, and it takes nothing that must be given back), then the bulkhead,
 * then the lock, which is held for the shortest time.
 */
final class Priorities {

  static final int RATE_LIMIT = Interceptor.Priority.PLATFORM_AFTER + 100;
  static final int BULKHEAD = RATE_LIMIT + 1;
  static final int LOCK = BULKHEAD + 1;

  private Priorities() {}
}
