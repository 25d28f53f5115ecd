package dev.bulwark.sample;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for a downstream system with a non-blocking client: a call is a stage that completes
 * after its duration. Tests can {@linkplain #hold(String) hold} the calls of one key open until
 * they {@linkplain #release(String) release} them, like {@link SlowDownstream}.
 */
@ApplicationScoped
public class AsyncDownstream {

  private final ConcurrentMap<String, CompletableFuture<Void>> holds = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, AtomicInteger> held = new ConcurrentHashMap<>();

  /** A call for {@code key} that completes after {@code duration}, without a thread waiting. */
  public CompletableFuture<Void> call(String key, Duration duration) {
    CompletableFuture<Void> hold = holds.get(key);
    if (hold == null) {
      return CompletableFuture.runAsync(
          () -> {}, CompletableFuture.delayedExecutor(duration.toMillis(), TimeUnit.MILLISECONDS));
    }
    AtomicInteger count = held.computeIfAbsent(key, k -> new AtomicInteger());
    count.incrementAndGet();
    return hold.whenComplete((done, failure) -> count.decrementAndGet());
  }

  /** From now on, calls for {@code key} last until {@link #release(String)}. */
  public void hold(String key) {
    holds.put(key, new CompletableFuture<>());
  }

  /** How many calls for {@code key} are being held open right now. */
  public int heldCalls(String key) {
    AtomicInteger count = held.get(key);
    return count == null ? 0 : count.get();
  }

  /** Ends every held call for {@code key}. */
  public void release(String key) {
    CompletableFuture<Void> hold = holds.remove(key);
    if (hold != null) {
      hold.complete(null);
    }
  }
}
