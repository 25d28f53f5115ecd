package dev.bulwark.cdi;

import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The guard of each intercepted method, resolved on its first call and kept: the hot path is one
 * map read. A method whose limit is disabled maps to {@link #DISABLED} and runs unguarded.
 */
final class GuardCache<G> {

  private static final Object DISABLED = new Object();

  /**
   * Per bean class, then per method: an inherited method can be guarded differently in two
   * subclasses. Weld's and ArC's proxies are one class per bean, so this is one extra lookup.
   */
  private final ClassValue<Map<Method, Object>> guards =
      new ClassValue<>() {
        @Override
        protected Map<Method, Object> computeValue(Class<?> beanClass) {
          return new ConcurrentHashMap<>();
        }
      };

  private final Function<InvocationContext, G> resolver;

  /**
   * @param resolver builds the guard of a method, or returns null when the limit is disabled
   */
  GuardCache(Function<InvocationContext, G> resolver) {
    this.resolver = resolver;
  }

  /** The guard of the context's method, or null to proceed unguarded. */
  @SuppressWarnings("unchecked")
  G get(InvocationContext context) {
    Object target = context.getTarget();
    Map<Method, Object> ofClass =
        guards.get(target == null ? context.getMethod().getDeclaringClass() : target.getClass());
    Object guard = ofClass.get(context.getMethod());
    if (guard == null) {
      guard =
          ofClass.computeIfAbsent(
              context.getMethod(),
              m -> {
                G resolved = resolver.apply(context);
                return resolved == null ? DISABLED : resolved;
              });
    }
    return guard == DISABLED ? null : (G) guard;
  }
}
