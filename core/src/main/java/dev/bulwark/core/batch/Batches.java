package dev.bulwark.core.batch;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The lanes of one engine and the store's sending side they share: a few threads of their own that
 * only send batches (a task per batch, lanes taking turns), never host a caller that waits for a
 * lane. Made once per engine when the store applies batches; a closing engine flushes them, so that
 * releases posted and not yet sent still reach the store.
 */
public final class Batches implements AutoCloseable {

  /**
   * Sending threads: a store that answers later (pipelining) needs one; a store whose batch holds
   * its thread for the round trip (a JPA transaction) sends this many limits' batches at once.
   */
  static final int SENDING_THREADS = 4;

  private static final AtomicInteger ENGINES = new AtomicInteger();

  private final int maxSize;
  private final int maxInFlight;
  private final ThreadPoolExecutor sending;
  private final Executor answering;
  private final List<Lane<?, ?>> lanes = new CopyOnWriteArrayList<>();
  private final List<KeyedLanes<?, ?, ?>> keyedLanes = new CopyOnWriteArrayList<>();

  /**
   * @param maxSize the most operations one store call carries ({@code bulwark.batch.max-size})
   * @param maxInFlight the most batches of one lane sent and not yet answered
   * @param answering where the stages of submitted and posted operations complete
   */
  public Batches(int maxSize, int maxInFlight, Executor answering) {
    this.maxSize = maxSize;
    this.maxInFlight = maxInFlight;
    this.answering = answering;
    String name = "bulwark-batch-send-" + ENGINES.incrementAndGet();
    this.sending =
        new ThreadPoolExecutor(
            SENDING_THREADS,
            SENDING_THREADS,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, name);
              thread.setDaemon(true);
              return thread;
            });
    this.sending.allowCoreThreadTimeOut(true);
  }

  /** A lane for one limit, kept as long as the engine. */
  public <O, R> Lane<O, R> lane(Lane.Sender<O, R> sender) {
    Lane<O, R> lane = newLane(sender);
    lanes.add(lane);
    return lane;
  }

  /** Lanes made on demand per key, each dropped once idle (see {@link KeyedLanes}). */
  public <K, O, R> KeyedLanes<K, O, R> keyed(Function<K, Lane.Sender<O, R>> senders) {
    KeyedLanes<K, O, R> keyed = new KeyedLanes<>(key -> newLane(senders.apply(key)));
    keyedLanes.add(keyed);
    return keyed;
  }

  private <O, R> Lane<O, R> newLane(Lane.Sender<O, R> sender) {
    return new Lane<>(sender, maxSize, maxInFlight, sending, answering);
  }

  /**
   * Waits until every lane sent what it holds and had it answered, at most {@code timeout} in all.
   *
   * @return whether every lane is idle
   */
  public boolean flush(long timeout, TimeUnit unit) {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    boolean idle = true;
    for (Lane<?, ?> lane : lanes) {
      idle &= lane.flush(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
    for (KeyedLanes<?, ?, ?> keyed : keyedLanes) {
      idle &= keyed.flush(deadline);
    }
    return idle;
  }

  /**
   * Stops the sending threads once what they were handed is sent; a batch taken after this is sent
   * on the thread that queued it.
   */
  @Override
  public void close() {
    sending.shutdown();
  }
}
