package dev.bulwark.core.waiting;

import java.util.concurrent.CompletionException;

/** What the asynchronous path needs to pass a failure through {@code CompletableFuture} stages. */
public final class Stages {

  private Stages() {}

  /** The failure itself, without the wrapper dependent stages put around it. */
  public static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /** {@code failure} in a form a stage's function may throw, keeping the original as the cause. */
  public static CompletionException rethrow(Throwable failure) {
    return failure instanceof CompletionException wrapped
        ? wrapped
        : new CompletionException(failure);
  }
}
