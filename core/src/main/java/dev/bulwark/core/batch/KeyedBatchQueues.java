package dev.bulwark.core.batch;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One batch queue per key of a limit (a lock's keys), so that unrelated keys never wait behind each
 * other's batch. A key's batch queue is made on its first operation and dropped once it has been
 * idle for {@link #IDLE_NANOS}: a name with a million keys over a day keeps batch queues only for
 * the keys in use.
 *
 * @param <K> the key
 */
public final class KeyedBatchQueues<K, O, R> {

  /**
   * How long a batch queue stays idle before it is dropped: far longer than the moment between
   * taking a batch queue and queueing on it, so a batch queue is never dropped with an operation on
   * its way in.
   */
  static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final Function<K, BatchQueue<O, R>> factory;
  private final Map<K, BatchQueue<O, R>> queues = new ConcurrentHashMap<>();
  private volatile long nextSweep = System.nanoTime() + IDLE_NANOS;

  KeyedBatchQueues(Function<K, BatchQueue<O, R>> factory) {
    this.factory = factory;
  }

  /** The batch queue of {@code key}, made when it has none. */
  public BatchQueue<O, R> queue(K key) {
    long now = System.nanoTime();
    if (now - nextSweep >= 0) {
      sweep(now);
    }
    return queues.computeIfAbsent(key, factory);
  }

  /** How many keys have a batch queue now. */
  public int size() {
    return queues.size();
  }

  private void sweep(long now) {
    nextSweep = now + IDLE_NANOS;
    queues.forEach(
        (key, queue) -> {
          if (queue.idleFor(IDLE_NANOS, now)) {
            queues.remove(key, queue);
          }
        });
  }

  /** Waits until each key's batch queue is idle, until {@code deadline} (nanoTime) at most. */
  boolean flush(long deadline) {
    boolean idle = true;
    for (BatchQueue<O, R> queue : queues.values()) {
      idle &= queue.flush(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
    return idle;
  }
}
