package dev.bulwark.cdi;

import io.smallrye.mutiny.Uni;
import jakarta.interceptor.InvocationContext;

/**
 * A method returning Mutiny's {@code Uni}: loaded only for such a method, so Mutiny stays an
 * optional dependency. A {@code Uni} is lazy, so each subscription is one call: it is admitted when
 * subscribed, the method is invoked once admitted, and the permit or lock is held until the
 * method's {@code Uni} completes or the subscription is cancelled.
 */
final class UniReturn extends AsyncReturn {

  @Override
  Object proceed(InvocationContext context, AsyncResumption resumption, Limit limit) {
    return Uni.createFrom()
        .completionStage(
            () ->
                limit.callAsync(
                    resumption.executor(),
                    resumption.withRequestContext(
                        () -> uni(context.proceed()).subscribeAsCompletionStage())));
  }

  @SuppressWarnings("unchecked") // the method's Uni, its items read as Object
  private static Uni<Object> uni(Object result) {
    return (Uni<Object>) result;
  }
}
