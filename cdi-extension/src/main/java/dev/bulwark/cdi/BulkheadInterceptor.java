package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.Permit;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Runs a {@link DistributedBulkhead} method under a permit, released however the call ends; for a
 * method returning {@code CompletionStage}, {@code CompletableFuture} or {@code Uni}, when its
 * result completes.
 */
@DistributedBulkhead
@Interceptor
@Priority(Priorities.BULKHEAD)
public class BulkheadInterceptor {

  private final GuardCache<BulkheadGuard> guards;
  private final AsyncResumption resumption;

  @Inject
  public BulkheadInterceptor(BulwarkRuntime runtime) {
    this.guards = runtime.bulkheads();
    this.resumption = runtime.resumption();
  }

  @AroundInvoke
  public Object guard(InvocationContext context) throws Exception {
    BulkheadGuard guard = guards.get(context);
    if (guard == null) {
      return context.proceed();
    }
    if (guard.async() != null) {
      return guard
          .async()
          .proceed(
              context,
              resumption,
              (resume, work) -> guard.limiter().callAsync(guard.waitNanos(), resume, work));
    }
    Permit permit = guard.limiter().acquire(guard.waitNanos());
    try {
      return context.proceed();
    } finally {
      permit.close();
    }
  }
}
