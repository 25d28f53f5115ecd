package dev.bulwark.cdi;

import dev.bulwark.core.engine.RateLimiter;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * The rate limit of one method: the shared limit, this method's waiting time, how its asynchronous
 * result is started (null for a synchronous method), and, for a limit mapped from another
 * annotation, how that annotation's runtime must see it (null for Bulwark's own).
 */
record RateGuard(RateLimiter limiter, long waitNanos, AsyncReturn async, MappedGuarding mapped) {

  /** Whether the method's asynchronous result is admitted without blocking. */
  boolean admitsAsync() {
    return async != null && (mapped == null || !mapped.admitsInPlace());
  }

  void acquire() {
    try {
      limiter.acquire(waitNanos);
    } catch (RuntimeException rejected) {
      throw mapped == null ? rejected : mapped.rejection().apply(rejected);
    }
  }

  CompletionStage<Object> callAsync(
      Executor resume, Callable<? extends CompletionStage<Object>> work) {
    CompletionStage<Object> stage = limiter.callAsync(waitNanos, resume, work);
    return mapped == null ? stage : mapped.translated(stage);
  }
}
