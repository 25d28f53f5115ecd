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
 * Caps how many calls of the annotated method start per time window across every JVM.
 *
 * <p>A caller that may wait ({@link #waitingTime()} &gt; 0) reserves the next free slot and sleeps
 * until it comes; a caller that may not gets a {@link RateLimitExceededException} telling when the
 * next permit frees up.
 */
@InterceptorBinding
@Inherited
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
public @interface DistributedRateLimit {

  /** Identity of the limit cluster-wide; empty means {@code <FQCN>#<method>}. */
  @Nonbinding
  String name() default "";

  /** Permits per window; must be positive. */
  @Nonbinding
  int value() default 100;

  @Nonbinding
  long window() default 1;

  @Nonbinding
  ChronoUnit windowUnit() default ChronoUnit.SECONDS;

  @Nonbinding
  RateLimitType type() default RateLimitType.SMOOTH;

  /** How long a caller may wait for the next permit; 0 rejects at once. */
  @Nonbinding
  long waitingTime() default 0;

  @Nonbinding
  ChronoUnit waitingTimeUnit() default ChronoUnit.MILLIS;
}
