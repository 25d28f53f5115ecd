package dev.bulwark.cdi;

import dev.bulwark.DistributedRateLimit;
import dev.bulwark.core.engine.RateLimiter;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/** Starts a {@link DistributedRateLimit} method only once it has a permit. */
@DistributedRateLimit
@Interceptor
@Priority(Priorities.BULWARK)
public class RateLimitInterceptor {

  private final GuardCache<RateLimiter> guards;

  @Inject
  public RateLimitInterceptor(BulwarkRuntime runtime) {
    this.guards = runtime.rateLimiters();
  }

  @AroundInvoke
  public Object guard(InvocationContext context) throws Exception {
    RateLimiter limiter = guards.get(context);
    if (limiter != null) {
      limiter.acquire();
    }
    return context.proceed();
  }
}
