package dev.bulwark.core.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * A batch queue in front of a sequential store, as Lincheck drives it: each operation appends its
 * value to the store's log and answers the log as it was before, so every answer shows where the
 * operation fell in the store's order. The three ways in are checked against {@link Sequential}:
 * {@code call}, {@code submit} waited for, and {@code post} followed by a flush (a posted
 * operation's effect must be in the store when the flush returns).
 *
 * <p>The store is not thread-safe on purpose and fails an operation when two batches overlap, so a
 * batch queue that ever sent two at once shows up as a result the sequential store cannot give.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:9")
abstract class BatchQueueUnderCheck {

  /** The most operations in a batch: small, so that batches split under three threads. */
  private static final int MAX_SIZE = 2;

  private final Log store = new Log();
  private final BatchQueue<Integer, String> queue;

  BatchQueueUnderCheck(Executor sending) {
    this.queue =
        new BatchQueue<>(
            BatchQueue.Sender.blocking(store::applyAll), MAX_SIZE, 1, sending, sending);
  }

  /**
   * A pipelined store: each batch is applied as it is handed over, in that order, and its answer
   * comes back later on {@code replies}, so up to {@code maxInFlight} batches are out at once.
   */
  BatchQueueUnderCheck(Executor sending, Executor replies, int maxInFlight) {
    this.queue =
        new BatchQueue<>(
            operations -> {
              List<String> answers = store.applyAll(operations);
              return CompletableFuture.supplyAsync(() -> answers, replies);
            },
            MAX_SIZE,
            maxInFlight,
            sending,
            sending);
  }

  @Operation
  public String call(@Param(name = "value") int value) {
    return queue.call(value);
  }

  @Operation
  public String submit(@Param(name = "value") int value) {
    return queue.submit(value).join();
  }

  @Operation
  public String post(@Param(name = "value") int value) {
    CompletableFuture<String> posted = queue.post(value);
    if (!queue.flush(1, TimeUnit.MINUTES)) {
      return "the flush timed out";
    }
    return posted.isDone() ? posted.join() : "the flush returned before the post was answered";
  }

  /** The same store without a batch queue: one operation after the other. */
  public static final class Sequential {
    private final Log store = new Log();

    public String call(int value) {
      return store.apply(value);
    }

    public String submit(int value) {
      return store.apply(value);
    }

    public String post(int value) {
      return store.apply(value);
    }
  }

  /** The store: a log of values; each answer is the log before the value was appended. */
  static final class Log {
    private final List<Integer> entries = new ArrayList<>();
    private final AtomicBoolean applying = new AtomicBoolean();

    List<String> applyAll(List<Integer> values) {
      if (!applying.compareAndSet(false, true)) {
        throw new IllegalStateException("two batches in the store at once");
      }
      try {
        List<String> answers = new ArrayList<>(values.size());
        for (int value : values) {
          answers.add(apply(value));
        }
        return answers;
      } finally {
        applying.set(false);
      }
    }

    String apply(int value) {
      String before = entries.toString();
      entries.add(value);
      return before;
    }
  }
}
