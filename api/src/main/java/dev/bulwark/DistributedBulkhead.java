package dev.bulwark;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.temporal.ChronoUnit;

/**
 * Caps how many calls of the annotated method run at once across every JVM of the service.
 *
 * <p>On a class, every business method of the class gets its own bulkhead unless {@link #name()} is
 * set, in which case they share it. A caller that finds the bulkhead full waits up to {@link
 * #waitingTime()} (first come, first served) and then gets a {@link BulkheadFullException}.
 */
@InterceptorBinding
@Inherited
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
public @interface DistributedBulkhead {

  /** Identity of the limit cluster-wide; empty means {@code <FQCN>#<method>}. */
  @Nonbinding
  String name() default "";

  /** Maximum number of concurrent executions across the cluster; must be positive. */
  @Nonbinding
  int value() default 10;

  /** How long a caller may wait for a permit; 0 fails fast. */
  @Nonbinding
  long waitingTime() default 0;

  @Nonbinding
  ChronoUnit waitingTimeUnit() default ChronoUnit.MILLIS;

  /**
   * After this long without renewal a holder's permit is reclaimed; a live holder's lease is
   * renewed while its call runs, so this only bounds how long a crashed JVM keeps its permits.
   */
  @Nonbinding
  long lease() default 30;

  @Nonbinding
  ChronoUnit leaseUnit() default ChronoUnit.SECONDS;
}
