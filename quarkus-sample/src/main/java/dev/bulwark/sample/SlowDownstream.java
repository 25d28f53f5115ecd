package dev.bulwark.sample;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for the slow systems the sample's services talk to (a legacy backend, a ledger).
 *
 * <p>A call takes its configured duration. Tests can instead {@linkplain #hold(String) hold} the
 * calls of one key open until they {@linkplain #release(String) release} them, so they check what
 * happens while a call is in progress with latches instead of clocks.
 */
@ApplicationScoped
public class SlowDownstream {

  /** No held call lasts longer than this, so a forgotten release cannot hang a test run. */
  private static final Duration MAX_HOLD = Duration.ofSeconds(30);

  private final ConcurrentMap<String, CountDownLatch> holds = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, AtomicInteger> held = new ConcurrentHashMap<>();

  /** Simulates a downstream call for {@code key} that takes {@code duration}. */
  public void call(String key, Duration duration) {
    try {
      CountDownLatch hold = holds.get(key);
      if (hold != null) {
        AtomicInteger count = held.computeIfAbsent(key, k -> new AtomicInteger());
        count.incrementAndGet();
        try {
          hold.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
          count.decrementAndGet();
        }
      } else if (!duration.isZero() && !duration.isNegative()) {
        Thread.sleep(duration.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** From now on, calls for {@code key} last until {@link #release(String)}. */
  public void hold(String key) {
    holds.put(key, new CountDownLatch(1));
  }

  /** How many calls for {@code key} are being held open right now. */
  public int heldCalls(String key) {
    AtomicInteger count = held.get(key);
    return count == null ? 0 : count.get();
  }

  /** Ends every held call for {@code key}; later calls take their normal duration again. */
  public void release(String key) {
    CountDownLatch hold = holds.remove(key);
    if (hold != null) {
      hold.countDown();
    }
  }
}
