package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigLookup;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * How long MicroProfile Fault Tolerance waits for an {@code @Asynchronous} method with a
 * {@code @Timeout}: Bulwark lets such a call wait for its permit no longer, so a request whose
 * caller FT has already answered with {@code TimeoutException} is withdrawn from the queue and the
 * method never runs for it (FT itself would still start it later). The time is counted from when
 * the call reaches Bulwark, on FT's thread, so FT's own earlier waiting (its {@code @Bulkhead}
 * queue) is not counted.
 *
 * <p>A synchronous method needs no bound: FT interrupts its waiting thread at the timeout, which
 * withdraws the request. The timeout is read as FT reads it: the annotation's value and unit, the
 * method's keys {@code <class>/<method>/Timeout/value|unit} for an annotation on the method, the
 * class's keys {@code <class>/Timeout/value|unit} for one on the class, then the global {@code
 * Timeout/value|unit}; {@code Timeout/enabled} (method, class, global) and {@code
 * MP_Fault_Tolerance_NonFallback_Enabled} switch it off.
 */
final class CallerTimeout {

  /** SmallRye's non-blocking variant of {@code @Asynchronous}, known by name. */
  private static final String NON_BLOCKING =
      "io.smallrye.faulttolerance.api.AsynchronousNonBlocking";

  private CallerTimeout() {}

  /**
   * {@code waitNanos}, bounded by {@code method}'s FT timeout when it is asynchronous for FT and
   * has one.
   */
  static long bound(Method method, long waitNanos, ConfigLookup config) {
    if (waitNanos <= 0 || !asynchronous(method)) {
      return waitNanos;
    }
    return timeout(method, config).map(t -> Math.min(waitNanos, t.toNanos())).orElse(waitNanos);
  }

  private static Optional<Duration> timeout(Method method, ConfigLookup config) {
    Class<?> declaring = method.getDeclaringClass();
    Timeout onMethod = method.getAnnotation(Timeout.class);
    Timeout annotation = onMethod != null ? onMethod : declaring.getAnnotation(Timeout.class);
    if (annotation == null) {
      return Optional.empty();
    }
    String prefix =
        declaring.getName() + (onMethod != null ? "/" + method.getName() : "") + "/Timeout/";
    String methodEnabled = declaring.getName() + "/" + method.getName() + "/Timeout/enabled";
    String classEnabled = declaring.getName() + "/Timeout/enabled";
    Optional<String> enabled =
        config
            .get(methodEnabled)
            .or(() -> config.get(classEnabled))
            .or(() -> config.get("Timeout/enabled"));
    boolean on =
        enabled
            .map(CallerTimeout::isTrue)
            .orElseGet(
                () ->
                    config
                        .get("MP_Fault_Tolerance_NonFallback_Enabled")
                        .map(CallerTimeout::isTrue)
                        .orElse(true));
    if (!on) {
      return Optional.empty();
    }
    long value =
        read(config, prefix + "value", method, v -> Long.parseLong(v.trim()))
            .orElse(annotation.value());
    ChronoUnit unit =
        read(
                config,
                prefix + "unit",
                method,
                u -> ChronoUnit.valueOf(u.trim().toUpperCase(Locale.ROOT)))
            .orElse(annotation.unit());
    return value <= 0 ? Optional.empty() : Optional.of(Duration.of(value, unit));
  }

  /** The method's key, else the global one, parsed; a bad value names the key and the method. */
  private static <T> Optional<T> read(
      ConfigLookup config, String key, Method method, Function<String, T> parse) {
    String global = "Timeout/" + key.substring(key.lastIndexOf('/') + 1);
    for (String k : new String[] {key, global}) {
      Optional<String> raw = config.get(k);
      if (raw.isPresent()) {
        try {
          return Optional.of(parse.apply(raw.get()));
        } catch (RuntimeException e) {
          throw new IllegalArgumentException(
              "Invalid config key '"
                  + k
                  + "' ("
                  + raw.get()
                  + ") for the Fault Tolerance timeout of "
                  + method.getDeclaringClass().getName()
                  + "#"
                  + method.getName(),
              e);
        }
      }
    }
    return Optional.empty();
  }

  private static boolean asynchronous(Method method) {
    return method.isAnnotationPresent(Asynchronous.class)
        || method.getDeclaringClass().isAnnotationPresent(Asynchronous.class)
        || hasNamed(method.getAnnotations())
        || hasNamed(method.getDeclaringClass().getAnnotations());
  }

  private static boolean hasNamed(Annotation[] annotations) {
    for (Annotation a : annotations) {
      if (a.annotationType().getName().equals(NON_BLOCKING)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isTrue(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    return v.equals("true") || v.equals("1") || v.equals("yes") || v.equals("on") || v.equals("y");
  }
}
