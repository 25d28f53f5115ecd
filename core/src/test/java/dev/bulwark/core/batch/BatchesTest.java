package dev.bulwark.core.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The batch queues of one engine: made with the engine's bound and background, flushed together.
 */
@Timeout(60)
class BatchesTest {

  private final ExecutorService background =
      Executors.newSingleThreadExecutor(task -> new Thread(task, "queue-background"));

  @AfterEach
  void stop() throws InterruptedException {
    background.shutdownNow();
    assertThat(background.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aQueueTakesTheEnginesBoundAndSendsOnTheSendingThreads() throws Exception {
    Batches batches = new Batches(2, 1, background);
    RecordingSender<Integer, Integer> sender = new RecordingSender<>(op -> op);
    BatchQueue<Integer, Integer> queue = batches.queue(sender);
    RecordingSender.Hold held = sender.holdNext();
    CompletableFuture<Integer> first = queue.post(1);
    held.awaitEntered();
    for (int op = 2; op <= 6; op++) {
      queue.post(op);
    }
    held.release();

    assertThat(batches.flush(10, TimeUnit.SECONDS)).isTrue();
    assertThat(first).isCompletedWithValue(1);
    assertThat(sender.sent())
        .allSatisfy(
            batch -> {
              assertThat(batch.operations()).hasSizeLessThanOrEqualTo(2);
              assertThat(batch.thread().getName()).startsWith("bulwark-batch-send-");
            });
    assertThat(sender.operationsInOrder()).containsExactly(1, 2, 3, 4, 5, 6);
  }

  @Test
  void flushWaitsForEveryQueueAndSaysWhenOneIsStillBusy() throws Exception {
    Batches batches = new Batches(8, 1, Runnable::run);
    RecordingSender<Integer, Integer> idleSender = new RecordingSender<>(op -> op);
    RecordingSender<Integer, Integer> heldSender = new RecordingSender<>(op -> op);
    BatchQueue<Integer, Integer> idle = batches.queue(idleSender);
    BatchQueue<Integer, Integer> busy = batches.queue(heldSender);
    assertThat(idle.post(1).get(10, TimeUnit.SECONDS)).isEqualTo(1);
    RecordingSender.Hold held = heldSender.holdNext();
    CompletableFuture<Integer> inFlight = CompletableFuture.supplyAsync(() -> busy.call(2));
    held.awaitEntered();
    CompletableFuture<Integer> posted = busy.post(3);

    assertThat(batches.flush(50, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(posted).isNotDone();

    held.release();
    assertThat(batches.flush(10, TimeUnit.SECONDS)).isTrue();
    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(posted).isCompletedWithValue(3);
  }
}
