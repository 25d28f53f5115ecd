package dev.bulwark.benchmarks;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * An interceptor that only proceeds: the floor any interceptor pays on Weld (the intercepted
 * subclass, the invocation context, the chain), so a library's own cost is {@code variant -
 * passThrough}.
 */
@PassThrough
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class PassThroughInterceptor {

  @AroundInvoke
  public Object proceed(InvocationContext context) throws Exception {
    return context.proceed();
  }
}
