package dev.bulwark.core.batch;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The lanes of one engine: made once per limit when the store applies batches, and flushed when the
 * engine closes, so that releases posted and not yet sent still reach the store.
 */
public final class Batches {

  private final int maxSize;
  private final Executor background;
  private final List<Lane<?, ?>> lanes = new CopyOnWriteArrayList<>();

  /**
   * @param maxSize the most operations one store call carries ({@code bulwark.batch.max-size})
   * @param background where batches that no waiting caller sends are sent from
   */
  public Batches(int maxSize, Executor background) {
    this.maxSize = maxSize;
    this.background = background;
  }

  public <O, R> Lane<O, R> lane(Lane.Sender<O, R> sender) {
    Lane<O, R> lane = new Lane<>(sender, maxSize, background);
    lanes.add(lane);
    return lane;
  }

  /**
   * Waits until every lane sent what it holds, at most {@code timeout} in all.
   *
   * @return whether every lane is idle
   */
  public boolean flush(long timeout, TimeUnit unit) {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    boolean idle = true;
    for (Lane<?, ?> lane : lanes) {
      idle &= lane.flush(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
    return idle;
  }
}
