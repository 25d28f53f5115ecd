package dev.bulwark.cdi;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;

/**
 * How Bulwark's interceptor runs a limit another integration mapped from its own annotation, so
 * that integration's runtime (its fallback, retry and circuit breaker) sees a Bulwark rejection
 * exactly as it would see its own.
 *
 * @param admitsInPlace the method returns a stage the integration reads as a plain result (SmallRye
 *     FT's MicroProfile-compatible mode, for a method without {@code @Asynchronous}): the call is
 *     admitted on the caller's thread before the method runs, a rejection is thrown there, and the
 *     permit is still held until the stage completes
 * @param rejection turns Bulwark's rejection into the one the integration's own policy throws
 */
public record MappedGuarding(boolean admitsInPlace, UnaryOperator<RuntimeException> rejection) {

  /** A stage whose failure, if a Bulwark rejection, is the integration's own instead. */
  <T> CompletionStage<T> translated(CompletionStage<T> stage) {
    CompletableFuture<T> translated = new CompletableFuture<>();
    stage.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            translated.complete(value);
          } else {
            Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure;
            translated.completeExceptionally(
                cause instanceof RuntimeException rejected ? rejection.apply(rejected) : cause);
          }
        });
    return translated;
  }
}
