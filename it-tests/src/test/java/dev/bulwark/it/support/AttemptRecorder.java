package dev.bulwark.it.support;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Sits inside MicroProfile Fault Tolerance (PLATFORM_AFTER + 10 .. + 50) and outside Bulwark
 * (inside FT: Bulwark runs at PLATFORM_AFTER + 100 to + 102), so it sees every attempt FT makes and
 * every rejection Bulwark throws.
 */
@Attempted
@Interceptor
@Priority(AttemptRecorder.PRIORITY)
public class AttemptRecorder {

  public static final int PRIORITY = Interceptor.Priority.PLATFORM_AFTER + 70;

  @AroundInvoke
  public Object record(InvocationContext context) throws Exception {
    Attempts attempts = null;
    for (Object parameter : context.getParameters()) {
      if (parameter instanceof Attempts found) {
        attempts = found;
      }
    }
    if (attempts == null) {
      return context.proceed();
    }
    try {
      Object result = context.proceed();
      attempts.succeeded();
      return result;
    } catch (Exception e) {
      attempts.failed(e);
      throw e;
    }
  }
}
