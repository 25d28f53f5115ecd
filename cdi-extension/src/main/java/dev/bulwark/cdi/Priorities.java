package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigLookup;
import jakarta.annotation.Priority;
import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.interceptor.Interceptor;
import java.util.Map;
import java.util.Optional;

/**
 * Bulwark's interceptors run inside MicroProfile Fault Tolerance's (PLATFORM_AFTER + 10 in
 * SmallRye, + 15 on Payara, up to + 50), so {@code @Retry} retries a rejection and
 * {@code @Fallback} handles it. Among themselves, on a method with several bindings: the rate limit
 * first (the cheapest rejection, and it takes nothing that must be given back), then the bulkhead,
 * then the lock, which is held for the shortest time.
 *
 * <p>FT's priority can be moved ({@code mp.fault.tolerance.interceptor.priority}); Bulwark's then
 * move with it, keeping the same distance inside it, so that whatever priority FT was given its
 * {@code @Fallback} still sees Bulwark's rejections.
 */
final class Priorities {

  /** MicroProfile FT's key for the priority of its interceptor. */
  static final String FT_PRIORITY = "mp.fault.tolerance.interceptor.priority";

  static final int FT_DEFAULT = Interceptor.Priority.PLATFORM_AFTER + 10;
  static final int RATE_LIMIT = Interceptor.Priority.PLATFORM_AFTER + 100;
  static final int BULKHEAD = RATE_LIMIT + 1;
  static final int LOCK = BULKHEAD + 1;

  private Priorities() {}

  /**
   * Each interceptor's priority when FT's is the one {@code config} gives: unchanged for FT's
   * default or lower, else as far inside FT's as by default. An unreadable value is left to FT to
   * report (it fails the deployment for it).
   */
  static Map<Class<?>, Integer> inside(ConfigLookup config) {
    int ft =
        config
            .get(FT_PRIORITY)
            .flatMap(
                raw -> {
                  try {
                    return Optional.of(Integer.parseInt(raw.trim()));
                  } catch (NumberFormatException e) {
                    return Optional.empty();
                  }
                })
            .orElse(FT_DEFAULT);
    int shift = Math.max(0, ft - FT_DEFAULT);
    return Map.of(
        RateLimitInterceptor.class, RATE_LIMIT + shift,
        BulkheadInterceptor.class, BULKHEAD + shift,
        LockInterceptor.class, LOCK + shift);
  }

  /** A {@code @Priority} to put on an interceptor class in place of its own. */
  static Priority literal(int value) {
    return new PriorityLiteral(value);
  }

  private static final class PriorityLiteral extends AnnotationLiteral<Priority>
      implements Priority {
    private static final long serialVersionUID = 1L;
    private final int value;

    PriorityLiteral(int value) {
      this.value = value;
    }

    @Override
    public int value() {
      return value;
    }
  }
}
