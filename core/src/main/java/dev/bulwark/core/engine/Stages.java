package dev.bulwark.core.engine;

import java.util.concurrent.CompletionException;

/** What the asynchronous path needs to pass a failure through {@code CompletableFuture} stages. */
final class Stages {

  private Stages() {}

  /** The failure itself, without the wrapper dependent stages put around it. */
  static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /** {@code failure} in a form a stage's function may throw, keeping the original as the cause. */
  static CompletionException rethrow(Throwable failure) {
    return failure instanceof CompletionException wrapped
        ? wrapped
        : new CompletionException(failure);
  }
}
