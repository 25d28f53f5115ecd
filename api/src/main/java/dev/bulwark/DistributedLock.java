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
 * Guards the annotated method with a cluster-wide read-write lock on the resource named by its
 * {@link LockKey} parameters: many readers or one writer per key.
 *
 * <p>An empty {@link #name()} means the declaring class's fully qualified name, so the reading and
 * the writing methods of one bean share a lock by default. Locks are re-entrant per thread: a
 * nested call on the same name and key that needs the same or a weaker mode runs under the lock
 * already held; a READ holder asking for WRITE gets an {@link IllegalStateException} instead of a
 * deadlock.
 */
@InterceptorBinding
@Inherited
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
public @interface DistributedLock {

  @Nonbinding
  String name() default "";

  @Nonbinding
  LockMode mode() default LockMode.WRITE;

  /** How long a caller may wait for the lock before a {@link LockTimeoutException}. */
  @Nonbinding
  long waitingTime() default 10;

  @Nonbinding
  ChronoUnit waitingTimeUnit() default ChronoUnit.SECONDS;

  @Nonbinding
  long lease() default 30;

  @Nonbinding
  ChronoUnit leaseUnit() default ChronoUnit.SECONDS;
}
