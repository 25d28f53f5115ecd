package dev.bulwark.it.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Callers of a guarded method, each on its own platform thread, with bounded waits for their
 * outcomes. Closing joins every thread (interrupting stragglers) and fails if one is still alive.
 */
public final class Callers implements AutoCloseable {

  /** A call that may throw anything. */
  @FunctionalInterface
  public interface Call<T> {
    T call() throws Exception;
  }

  /** One caller: its thread and the outcome of its call. */
  public static final class Caller<T> {
    private final Thread thread;
    private final CompletableFuture<T> outcome = new CompletableFuture<>();
    private volatile long startNanos;
    private volatile long endNanos;

    Caller(String name, Call<T> call) {
      this.thread =
          new Thread(
              () -> {
                startNanos = System.nanoTime();
                try {
                  T value = call.call();
                  endNanos = System.nanoTime();
                  outcome.complete(value);
                } catch (Throwable t) {
                  endNanos = System.nanoTime();
                  outcome.completeExceptionally(t);
                }
              },
              name);
      thread.setDaemon(true);
    }

    public Thread thread() {
      return thread;
    }

    public boolean isDone() {
      return outcome.isDone();
    }

    /** The call's result; fails the test if it threw or did not end within {@code timeout}. */
    public T result(Duration timeout) {
      try {
        return outcome.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        throw new AssertionError(thread.getName() + " failed", e.getCause());
      } catch (TimeoutException e) {
        throw new AssertionError(
            thread.getName() + " did not finish within " + timeout + ": " + stack(thread));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }

    /** What the call threw; fails the test if it returned or did not end within {@code timeout}. */
    public Throwable failure(Duration timeout) {
      try {
        T value = outcome.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        throw new AssertionError(thread.getName() + " returned " + value + " instead of failing");
      } catch (ExecutionException e) {
        return e.getCause();
      } catch (TimeoutException e) {
        throw new AssertionError(
            thread.getName() + " did not finish within " + timeout + ": " + stack(thread));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }

    /** Waits for the call to end however it ends; fails the test after {@code timeout}. */
    public void await(Duration timeout) {
      try {
        outcome.handle((v, t) -> null).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw new AssertionError(
            thread.getName() + " did not finish within " + timeout + ": " + stack(thread));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }

    /** How long the call took, once it is done. */
    public Duration elapsed() {
      if (!outcome.isDone()) {
        throw new IllegalStateException(thread.getName() + " is still running");
      }
      return Duration.ofNanos(endNanos - startNanos);
    }

    /**
     * Waits until the caller's thread is parked (WAITING or TIMED_WAITING) and stays parked for
     * {@code settle}, which is how a test knows a caller is queued before it starts the next one.
     * Fails if the call ends instead, or after {@code timeout}.
     */
    public void awaitParked(Duration settle, Duration timeout) {
      Set<Thread.State> parked = EnumSet.of(Thread.State.WAITING, Thread.State.TIMED_WAITING);
      long deadline = System.nanoTime() + timeout.toNanos();
      long parkedSince = -1;
      while (true) {
        long now = System.nanoTime();
        if (outcome.isDone()) {
          throw new AssertionError(
              thread.getName() + " ended instead of waiting: " + describe(outcome));
        }
        if (parked.contains(thread.getState())) {
          if (parkedSince < 0) {
            parkedSince = now;
          } else if (now - parkedSince >= settle.toNanos()) {
            return;
          }
        } else {
          parkedSince = -1;
        }
        if (now > deadline) {
          throw new AssertionError(
              thread.getName()
                  + " did not park within "
                  + timeout
                  + " (state "
                  + thread.getState()
                  + "): "
                  + stack(thread));
        }
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
      }
    }

    private static String describe(CompletableFuture<?> outcome) {
      try {
        return "returned " + outcome.getNow(null);
      } catch (RuntimeException e) {
        return "threw " + e.getCause();
      }
    }
  }

  private final String prefix;
  private final List<Caller<?>> callers = new ArrayList<>();

  public Callers(String prefix) {
    this.prefix = prefix;
  }

  /** Starts a caller on a new thread. */
  public <T> Caller<T> start(Call<T> call) {
    Caller<T> caller = new Caller<>(prefix + "-" + callers.size(), call);
    callers.add(caller);
    caller.thread.start();
    return caller;
  }

  /** A call that returns nothing and may throw anything. */
  @FunctionalInterface
  public interface Action {
    void run() throws Exception;
  }

  /** Starts a caller of a method that returns nothing. */
  public Caller<Void> run(Action action) {
    return start(
        () -> {
          action.run();
          return null;
        });
  }

  public List<Caller<?>> all() {
    return List.copyOf(callers);
  }

  /** Waits for every caller to end; fails the test after {@code timeout}. */
  public void awaitAll(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Caller<?> caller : callers) {
      caller.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
  }

  @Override
  public void close() {
    List<String> alive = new ArrayList<>();
    for (Caller<?> caller : callers) {
      try {
        caller.thread.join(TimeUnit.SECONDS.toMillis(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (caller.thread.isAlive()) {
        alive.add(caller.thread.getName() + ": " + stack(caller.thread));
        caller.thread.interrupt();
      }
    }
    if (!alive.isEmpty()) {
      throw new AssertionError("callers still running: " + alive);
    }
  }

  static String stack(Thread thread) {
    return Arrays.toString(thread.getStackTrace());
  }
}
