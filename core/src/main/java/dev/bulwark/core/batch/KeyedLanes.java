package dev.bulwark.core.batch;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One lane per key of a limit (a lock's keys), so that unrelated keys never wait behind each
 * other's batch. A key's lane is made on its first operation and dropped once it has been idle for
 * {@link #IDLE_NANOS}: a name with a million keys over a day keeps lanes only for the keys in use.
 *
 * @param <K> the key
 */
public final class KeyedLanes<K, O, R> {

  /**
   * How long a lane stays idle before it is dropped: far longer than the moment between taking a
   * lane and queueing on it, so a lane is never dropped with an operation on its way in.
   */
  static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final Function<K, Lane<O, R>> factory;
  private final Map<K, Lane<O, R>> lanes = new ConcurrentHashMap<>();
  private volatile long nextSweep = System.nanoTime() + IDLE_NANOS;

  KeyedLanes(Function<K, Lane<O, R>> factory) {
    this.factory = factory;
  }

  /** The lane of {@code key}, made when it has none. */
  public Lane<O, R> lane(K key) {
    long now = System.nanoTime();
    if (now - nextSweep >= 0) {
      sweep(now);
    }
    return lanes.computeIfAbsent(key, factory);
  }

  /** How many keys have a lane now. */
  public int size() {
    return lanes.size();
  }

  private void sweep(long now) {
    nextSweep = now + IDLE_NANOS;
    lanes.forEach(
        (key, lane) -> {
          if (lane.idleFor(IDLE_NANOS, now)) {
            lanes.remove(key, lane);
          }
        });
  }

  /** Waits until each key's lane is idle, until {@code deadline} (nanoTime) at most. */
  boolean flush(long deadline) {
    boolean idle = true;
    for (Lane<O, R> lane : lanes.values()) {
      idle &= lane.flush(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
    return idle;
  }
}
