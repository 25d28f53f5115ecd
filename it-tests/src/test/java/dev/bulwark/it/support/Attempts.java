package dev.bulwark.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The attempts one call made through the interceptors that sit between MicroProfile Fault Tolerance
 * and Bulwark: each attempt's outcome in order, and fallbacks taken.
 */
public final class Attempts {

  /** What one attempt ended with: {@code null} failure means it returned normally. */
  public record Attempt(Throwable failure) {
    public boolean succeeded() {
      return failure == null;
    }
  }

  private final List<Attempt> attempts = new ArrayList<>();
  private int fallbacks;
  private Consumer<Throwable> onFirstFailure = failure -> {};

  /** Runs {@code action} synchronously when the first attempt fails, before FT sees it. */
  public synchronized Attempts onFirstFailure(Consumer<Throwable> action) {
    this.onFirstFailure = action;
    return this;
  }

  public void failed(Throwable failure) {
    boolean first;
    synchronized (this) {
      attempts.add(new Attempt(failure));
      first = attempts.stream().filter(a -> !a.succeeded()).count() == 1;
    }
    if (first) {
      onFirstFailure.accept(failure);
    }
  }

  public synchronized void succeeded() {
    attempts.add(new Attempt(null));
  }

  public synchronized void fallback() {
    fallbacks++;
  }

  public synchronized List<Attempt> all() {
    return List.copyOf(attempts);
  }

  public synchronized int fallbacks() {
    return fallbacks;
  }

  @Override
  public synchronized String toString() {
    return "Attempts" + attempts + ", fallbacks=" + fallbacks;
  }
}
