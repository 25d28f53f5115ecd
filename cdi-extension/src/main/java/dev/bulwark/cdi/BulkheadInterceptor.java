package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.Permit;
import dev.bulwark.core.engine.BulkheadLimiter;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/** Runs a {@link DistributedBulkhead} method under a permit, released however the call ends. */
@DistributedBulkhead
@Interceptor
@Priority(Priorities.BULWARK)
public class BulkheadInterceptor {

  private final GuardCache<BulkheadLimiter> guards;

  @Inject
  public BulkheadInterceptor(BulwarkRuntime runtime) {
    this.guards = runtime.bulkheads();
  }

  @AroundInvoke
  public Object guard(InvocationContext context) throws Exception {
    BulkheadLimiter limiter = guards.get(context);
    if (limiter == null) {
      return context.proceed();
    }
    Permit permit = limiter.acquire();
    try {
      return context.proceed();
    } finally {
      permit.close();
    }
  }
}
