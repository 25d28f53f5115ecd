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
 * The batch queues of one engine and the store's sending side they share: a few threads of their
 * own that only send batches (a task per batch, batch queues taking turns), never host a caller
 * that waits for a batch queue. Made once per engine when the store applies batches; a closing
 * engine flushes them, so that releases posted and not yet sent still reach the store.
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
  private final List<BatchQueue<?, ?>> queues = new CopyOnWriteArrayList<>();
  private final List<KeyedBatchQueues<?, ?, ?>> keyedQueues = new CopyOnWriteArrayList<>();

  /**
   * @param maxSize the most operations one store call carries ({@code bulwark.batch.max-size})
   * @param maxInFlight the most batches of one batch queue sent and not yet answered
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

  /** A batch queue for one limit, kept as long as the engine. */
  public <O, R> BatchQueue<O, R> queue(BatchQueue.Sender<O, R> sender) {
    BatchQueue<O, R> queue = newQueue(sender);
    queues.add(queue);
    return queue;
  }

  /** Batch queues made on demand per key, each dropped once idle (see {@link KeyedBatchQueues}). */
  public <K, O, R> KeyedBatchQueues<K, O, R> keyed(Function<K, BatchQueue.Sender<O, R>> senders) {
    KeyedBatchQueues<K, O, R> keyed = new KeyedBatchQueues<>(key -> newQueue(senders.apply(key)));
    keyedQueues.add(keyed);
    return keyed;
  }

  private <O, R> BatchQueue<O, R> newQueue(BatchQueue.Sender<O, R> sender) {
    return new BatchQueue<>(sender, maxSize, maxInFlight, sending, answering);
  }

  /**
   * Waits until every batch queue sent what it holds and had it answered, at most {@code timeout}
   * in all.
   *
   * @return whether every batch queue is idle
   */
  public boolean flush(long timeout, TimeUnit unit) {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    boolean idle = true;
    for (BatchQueue<?, ?> queue : queues) {
      idle &= queue.flush(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
    for (KeyedBatchQueues<?, ?, ?> keyed : keyedQueues) {
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
