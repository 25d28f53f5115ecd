package dev.bulwark.cdi;

import dev.bulwark.DistributedLock;
import dev.bulwark.LockPermit;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Runs a {@link DistributedLock} method holding the key its {@code @LockKey} arguments name; for a
 * method returning {@code CompletionStage}, {@code CompletableFuture} or {@code Uni}, until its
 * result completes.
 */
@DistributedLock
@Interceptor
@Priority(Priorities.LOCK)
public class LockInterceptor {

  private final GuardCache<LockGuard> guards;
  private final AsyncResumption resumption;

  @Inject
  public LockInterceptor(BulwarkRuntime runtime) {
    this.guards = runtime.locks();
    this.resumption = runtime.resumption();
  }

  @AroundInvoke
  public Object guard(InvocationContext context) throws Exception {
    LockGuard guard = guards.get(context);
    if (guard == null) {
      return context.proceed();
    }
    String key = guard.keys().keyOf(context.getParameters());
    if (guard.async() != null) {
      return guard
          .async()
          .proceed(
              context,
              resumption,
              (resume, work) ->
                  guard.lock().callAsync(key, guard.mode(), guard.waitNanos(), resume, work));
    }
    LockPermit permit = guard.lock().lock(key, guard.mode(), guard.waitNanos());
    try {
      return context.proceed();
    } finally {
      permit.close();
    }
  }
}
