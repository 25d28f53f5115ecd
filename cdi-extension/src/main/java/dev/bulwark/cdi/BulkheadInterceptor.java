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
    if (guard.admitsAsync()) {
      return guard.async().proceed(context, resumption, guard::callAsync);
    }
    Permit permit = guard.acquire();
    if (guard.async() != null) {
      return AsyncReturn.heldUntilComplete(context, permit);
    }
    try {
      return context.proceed();
    } finally {
      permit.close();
    }
  }
}
