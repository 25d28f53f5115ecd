package dev.bulwark.cdi;

import jakarta.interceptor.Interceptor;

/**
 * Bulwark's interceptors run inside MicroProfile Fault Tolerance's (PLATFORM_AFTER + 10 in
 * SmallRye, + 15 on Payara, up to + 50), so {@code @Retry} retries a rejection and
 * {@code @Fallback} handles it.
 */
final class Priorities {

  static final int BULWARK = Interceptor.Priority.PLATFORM_AFTER + 100;

  private Priorities() {}
}
