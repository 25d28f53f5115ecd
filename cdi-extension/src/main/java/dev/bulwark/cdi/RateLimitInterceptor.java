package dev.bulwark.cdi;

import dev.bulwark.DistributedRateLimit;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Starts a {@link DistributedRateLimit} method only once it has a permit; a method returning {@code
 * CompletionStage}, {@code CompletableFuture} or {@code Uni} waits for it without blocking.
 */
@DistributedRateLimit
@Interceptor
@Priority(Priorities.RATE_LIMIT)
public class RateLimitInterceptor {

  private final GuardCache<RateGuard> guards;
  private final AsyncResumption resumption;

  @Inject
  public RateLimitInterceptor(BulwarkRuntime runtime) {
    this.guards = runtime.rateLimiters();
    this.resumption = runtime.resumption();
  }

  @AroundInvoke
  public Object guard(InvocationContext context) throws Exception {
    RateGuard guard = guards.get(context);
    if (guard == null) {
      return context.proceed();
    }
    if (guard.admitsAsync()) {
      return guard.async().proceed(context, resumption, guard::callAsync);
    }
    guard.acquire();
    return context.proceed();
  }
}
