package dev.bulwark.core.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.core.batch.RecordingSender.Sent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The batch queue of one limit: who gets which answer, in which order and batches operations reach
 * the store, who sends, what a failing batch does, and what happens to posts, flushes and
 * interrupts. Each test holds a batch in the sender where it needs operations to queue, so what
 * queues is decided by the test, not by timing.
 */
@Timeout(60)
class BatchQueueTest {

  private final ExecutorService sending =
      Executors.newSingleThreadExecutor(task -> new Thread(task, "queue-sending"));
  private final ExecutorService answering =
      Executors.newSingleThreadExecutor(task -> new Thread(task, "queue-answering"));
  private final List<Thread> started = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Thread thread : started) {
      thread.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(thread.isAlive()).as("%s ended", thread.getName()).isFalse();
    }
    sending.shutdownNow();
    answering.shutdownNow();
    assertThat(sending.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThat(answering.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aCallerAloneHasItsOperationSentAtOnceByTheSendingSideInABatchOfOne() {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);

    assertThat(queue.call(7)).isEqualTo("answer 7");

    assertThat(sender.sent()).hasSize(1);
    assertThat(sender.sent().get(0).operations()).containsExactly(7);
    assertThat(sender.sent().get(0).thread().getName()).isEqualTo("queue-sending");
    assertThat(queue.queuedCount()).isZero();
  }

  @Test
  void aSubmittedOperationIsSentByTheSendingSideAndItsStageCompletesOnTheAnsweringSide()
      throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);
    RecordingSender.Hold held = sender.holdNext();

    CompletableFuture<String> answer = queue.submit(3);
    held.awaitEntered();
    CompletableFuture<String> completedOn =
        answer.thenApply(value -> Thread.currentThread().getName());
    held.release();

    // waited for first: a thread waiting on a stage may run the stage's dependents itself
    assertThat(completedOn.get(10, TimeUnit.SECONDS)).isEqualTo("queue-answering");
    assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("answer 3");
    assertThat(sender.sent())
        .singleElement()
        .satisfies(
            batch -> {
              assertThat(batch.operations()).containsExactly(3);
              assertThat(batch.thread().getName()).isEqualTo("queue-sending");
            });
  }

  @Test
  void operationsQueuedBehindABatchGoInArrivalOrderInBatchesOfAtMostMaxSize() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 4, 1, sending, answering);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> queue.call(0));
    first.awaitEntered();

    List<CompletableFuture<String>> answers = new ArrayList<>();
    for (int op = 1; op <= 10; op++) {
      answers.add(op % 2 == 0 ? queue.submit(op) : queue.post(op));
    }
    assertThat(queue.queuedCount()).isEqualTo(10);
    assertThat(answers).allSatisfy(answer -> assertThat(answer).isNotDone());
    first.release();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    for (int op = 1; op <= 10; op++) {
      assertThat(answers.get(op - 1).get(10, TimeUnit.SECONDS)).isEqualTo("answer " + op);
    }
    assertThat(sender.sent())
        .extracting(Sent::operations)
        .containsExactly(List.of(0), List.of(1, 2, 3, 4), List.of(5, 6, 7, 8), List.of(9, 10));
    assertThat(sender.overlaps()).isZero();
  }

  @Test
  void eachCallerGetsTheAnswerToItsOwnOperation() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 5, 1, sending, answering);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> queue.call(0));
    first.awaitEntered();

    int callers = 12;
    List<AtomicReference<String>> answers = new ArrayList<>();
    for (int op = 1; op <= callers; op++) {
      int mine = op;
      AtomicReference<String> answer = new AtomicReference<>();
      answers.add(answer);
      start(
          "caller-" + op,
          () -> {
            answer.set(queue.call(mine));
            if (Thread.currentThread().isInterrupted()) {
              answer.set("interrupted, though nobody interrupted it");
            }
          });
    }
    waitUntil("all callers queued", () -> queue.queuedCount() == callers);
    first.release();
    joinAll();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    for (int op = 1; op <= callers; op++) {
      assertThat(answers.get(op - 1).get()).isEqualTo("answer " + op);
    }
    assertThat(sender.operationsInOrder()).hasSize(callers + 1).doesNotHaveDuplicates();
    assertThat(sender.sent())
        .allSatisfy(batch -> assertThat(batch.operations()).hasSizeLessThanOrEqualTo(5));
    // 12 queued behind the first: sent as 5 + 5 + 2
    assertThat(sender.sent()).hasSize(4);
  }

  @Test
  void aFailingBatchFailsEveryOperationInItAndTheQueueKeepsWorking() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);
    IllegalStateException storeDown = new IllegalStateException("store down");
    sender.failWhen(batch -> batch.contains(2) ? storeDown : null);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> queue.call(0));
    first.awaitEntered();

    List<AtomicReference<Throwable>> failures = new ArrayList<>();
    for (int op = 1; op <= 3; op++) {
      int mine = op;
      AtomicReference<Throwable> failure = new AtomicReference<>();
      failures.add(failure);
      start(
          "caller-" + op,
          () -> {
            try {
              queue.call(mine);
            } catch (RuntimeException e) {
              failure.set(e);
            }
          });
      waitUntil("caller " + op + " queued", () -> queue.queuedCount() == mine);
    }
    CompletableFuture<String> submitted = queue.submit(4);
    CompletableFuture<String> posted = queue.post(5);
    first.release();
    joinAll();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    assertThat(failures).allSatisfy(failure -> assertThat(failure.get()).isSameAs(storeDown));
    assertThatThrownBy(() -> submitted.get(10, TimeUnit.SECONDS)).hasCause(storeDown);
    assertThatThrownBy(() -> posted.get(10, TimeUnit.SECONDS)).hasCause(storeDown);
    assertThat(sender.sent())
        .extracting(Sent::operations)
        .containsExactly(List.of(0), List.of(1, 2, 3, 4, 5));

    assertThat(queue.call(6)).isEqualTo("answer 6");
    assertThat(queue.submit(7).get(10, TimeUnit.SECONDS)).isEqualTo("answer 7");
  }

  @Test
  void aBatchAnsweredWithTheWrongNumberOfAnswersFailsEveryOperationInIt() {
    BatchQueue<Integer, String> queue =
        new BatchQueue<>(
            BatchQueue.Sender.blocking(ops -> List.of("one", "two")), 8, 1, sending, answering);

    assertThatThrownBy(() -> queue.call(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a batch of 1 operations got 2 answers");
  }

  @Test
  void anErrorOfTheSenderReachesTheCallerAndTheQueueKeepsWorking() {
    AtomicReference<Boolean> failing = new AtomicReference<>(true);
    BatchQueue<Integer, String> queue =
        new BatchQueue<>(
            BatchQueue.Sender.blocking(
                ops -> {
                  if (failing.getAndSet(false)) {
                    throw new AssertionError("sender broke");
                  }
                  return List.of("fine");
                }),
            8,
            1,
            sending,
            answering);

    assertThatThrownBy(() -> queue.call(1))
        .isInstanceOf(AssertionError.class)
        .hasMessage("sender broke");
    assertThat(queue.call(2)).isEqualTo("fine");
  }

  @Test
  void aCheckedExceptionThrownPastTheCompilerFailsTheBatchAndTheQueueKeepsWorking()
      throws Exception {
    IOException reset = new IOException("connection reset");
    AtomicReference<Boolean> failing = new AtomicReference<>(true);
    BatchQueue<Integer, String> queue =
        new BatchQueue<>(
            BatchQueue.Sender.blocking(
                ops -> {
                  if (failing.getAndSet(false)) {
                    throw BatchQueueTest.<RuntimeException>sneaky(reset);
                  }
                  return List.of("fine");
                }),
            8,
            1,
            sending,
            answering);

    assertThatThrownBy(() -> queue.call(1)).isInstanceOf(CompletionException.class).hasCause(reset);
    assertThat(queue.flush(10, TimeUnit.SECONDS)).as("the queue is idle again").isTrue();
    assertThat(queue.call(2)).isEqualTo("fine");
  }

  /** Throws {@code failure} unchecked, as a sender in another JVM language may. */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable failure) throws T {
    throw (T) failure;
  }

  @Test
  void aPostIsSentByTheSendingSideNotByThePostingThread() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);
    RecordingSender.Hold held = sender.holdNext();

    CompletableFuture<String> posted = queue.post(1);

    held.awaitEntered(); // the post returned while its batch is still in the sender
    assertThat(posted).isNotDone();
    held.release();
    assertThat(posted.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
    assertThat(sender.sent())
        .singleElement()
        .satisfies(
            batch -> {
              assertThat(batch.operations()).containsExactly(1);
              assertThat(batch.thread().getName()).isEqualTo("queue-sending");
            });
  }

  @Test
  void aPostedOperationIsNeverSentInsideThePostOfManyThreads() throws Exception {
    ThreadLocal<Boolean> posting = ThreadLocal.withInitial(() -> false);
    List<Integer> sentInsideAPost = new ArrayList<>();
    BatchQueue<Integer, Integer> queue =
        new BatchQueue<>(
            BatchQueue.Sender.blocking(
                ops -> {
                  if (posting.get()) {
                    synchronized (sentInsideAPost) {
                      sentInsideAPost.addAll(ops);
                    }
                  }
                  return ops;
                }),
            3,
            1,
            sending,
            answering);
    int threads = 4;
    int postsEach = 500;
    List<CompletableFuture<Integer>> posted = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int base = t * postsEach;
      start(
          "poster-" + t,
          () -> {
            for (int i = 0; i < postsEach; i++) {
              posting.set(true);
              CompletableFuture<Integer> answer;
              try {
                answer = queue.post(base + i);
              } finally {
                posting.set(false);
              }
              synchronized (posted) {
                posted.add(answer);
              }
            }
          });
    }
    joinAll();

    assertThat(queue.flush(30, TimeUnit.SECONDS)).isTrue();
    assertThat(posted)
        .hasSize(threads * postsEach)
        .allSatisfy(answer -> assertThat(answer).isDone());
    assertThat(sentInsideAPost).isEmpty();
  }

  @Test
  void flushWaitsUntilThePostedOperationsAreSent() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);
    RecordingSender.Hold held = sender.holdNext();
    CompletableFuture<String> first = queue.post(1);
    held.awaitEntered();
    CompletableFuture<String> second = queue.post(2);

    assertThat(queue.flush(50, TimeUnit.MILLISECONDS))
        .as("flushed while a batch is held")
        .isFalse();
    assertThat(second).isNotDone();

    held.release();
    assertThat(queue.flush(10, TimeUnit.SECONDS)).isTrue();
    assertThat(first).isCompletedWithValue("answer 1");
    assertThat(second).isCompletedWithValue("answer 2");
    assertThat(queue.queuedCount()).isZero();
    assertThat(queue.flush(0, TimeUnit.SECONDS)).as("an idle queue is flushed at once").isTrue();
    assertThat(CompletableFuture.supplyAsync(() -> queue.call(3)).get(10, TimeUnit.SECONDS))
        .as("another thread uses the queue after the flush")
        .isEqualTo("answer 3");
  }

  @Test
  void anInterruptedFlushReturnsAtOnceAndKeepsTheInterrupt() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);
    RecordingSender.Hold held = sender.holdNext();
    CompletableFuture<String> posted = queue.post(1);
    held.awaitEntered();

    Thread.currentThread().interrupt();
    boolean flushed;
    try {
      flushed = queue.flush(1, TimeUnit.HOURS);
    } finally {
      assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
    }

    assertThat(flushed).as("a batch is still held").isFalse();
    held.release();
    assertThat(posted.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
  }

  @Test
  void anInterruptWhileWaitingForTheAnswerIsKeptNotThrown() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> queue.call(0));
    first.awaitEntered();
    AtomicReference<String> answer = new AtomicReference<>();
    AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
    Thread caller =
        start(
            "interrupted-caller",
            () -> {
              answer.set(queue.call(1));
              interruptedAfter.set(Thread.currentThread().isInterrupted());
            });
    waitUntil("the caller queued", () -> queue.queuedCount() == 1);
    caller.interrupt();
    waitUntil("the caller parked again", () -> caller.getState() == Thread.State.WAITING);
    first.release();
    joinAll();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    assertThat(answer.get()).isEqualTo("answer 1");
    assertThat(interruptedAfter.get()).as("the interrupt is kept for the caller").isTrue();
  }

  @Test
  void anInterruptBeforeTheCallIsKeptAndTheOperationStillSent() {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);

    Thread.currentThread().interrupt();
    String answer;
    try {
      answer = queue.call(1);
    } finally {
      assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
    }

    assertThat(answer).isEqualTo("answer 1");
    assertThat(sender.sent()).singleElement().satisfies(b -> assertThat(b.interrupted()).isFalse());
  }

  @Test
  void aSubmitByAnInterruptedThreadIsSentUninterruptedAndTheInterruptKept() {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);

    Thread.currentThread().interrupt();
    CompletableFuture<String> answer;
    try {
      answer = queue.submit(1);
    } finally {
      assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
    }

    assertThat(answer.join()).isEqualTo("answer 1");
    assertThat(sender.sent()).singleElement().satisfies(b -> assertThat(b.interrupted()).isFalse());
  }

  @Test
  void whenTheSendingSideRejectsWorkTheOperationsAreStillSentFromTheQueueingThread()
      throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Executor closed =
        task -> {
          throw new RejectedExecutionException("the engine is closed");
        };
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, closed, closed);

    assertThat(queue.post(1)).as("sent on the posting thread").isCompletedWithValue("answer 1");

    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> queue.call(2));
    first.awaitEntered();
    CompletableFuture<String> posted = queue.post(3);
    first.release();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 2");
    assertThat(posted.get(10, TimeUnit.SECONDS)).isEqualTo("answer 3");
    assertThat(queue.flush(10, TimeUnit.SECONDS)).isTrue();
    assertThat(sender.operationsInOrder()).containsExactly(1, 2, 3);
  }

  @Test
  void aCallFromAStageOfTheQueuesOwnAnswerIsSentAsAnyOther() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);
    AtomicReference<Throwable> reentered = new AtomicReference<>();
    RecordingSender.Hold held = sender.holdNext();
    CompletableFuture<String> post = queue.post(1);
    held.awaitEntered(); // the stage completes after its dependent is attached

    CompletableFuture<String> posted =
        post.whenComplete(
            (answer, failure) -> {
              try {
                queue.call(2); // the stage completes off the sending side, so this may wait
              } catch (RuntimeException e) {
                reentered.set(e);
              }
            });
    held.release();

    assertThat(posted.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
    assertThat(reentered.get()).isNull();
    assertThat(queue.call(3)).isEqualTo("answer 3");
    assertThat(sender.operationsInOrder()).containsExactly(1, 2, 3);
  }

  @Test
  void aCallFromTheSenderItselfFailsTheBatchRatherThanWaitForever() {
    AtomicReference<BatchQueue<Integer, String>> self = new AtomicReference<>();
    BatchQueue<Integer, String> queue =
        new BatchQueue<>(
            BatchQueue.Sender.blocking(
                ops -> {
                  if (ops.contains(1)) {
                    self.get().call(2);
                  }
                  return List.of("answer");
                }),
            8,
            1,
            sending,
            answering);
    self.set(queue);

    assertThatThrownBy(() -> queue.call(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("it would wait for the thread it holds");
    assertThat(queue.call(3)).isEqualTo("answer");
  }

  @Test
  void aMaxSizeOfOneSendsEachOperationAlone() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 1, 1, sending, answering);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> queue.call(0));
    first.awaitEntered();
    CompletableFuture<String> one = queue.submit(1);
    CompletableFuture<String> two = queue.post(2);
    first.release();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    assertThat(one.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
    assertThat(two.get(10, TimeUnit.SECONDS)).isEqualTo("answer 2");
    assertThat(sender.sent())
        .extracting(Sent::operations)
        .containsExactly(List.of(0), List.of(1), List.of(2));
  }

  @Test
  void aMaxSizeBelowOneIsRefused() {
    assertThatThrownBy(
            () ->
                new BatchQueue<Integer, String>(
                    BatchQueue.Sender.blocking(ops -> List.of()), 0, 1, sending, answering))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxSize must be at least 1, was 0");
    assertThatThrownBy(
            () ->
                new BatchQueue<Integer, String>(
                    BatchQueue.Sender.blocking(ops -> List.of()), 1, 0, sending, answering))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxInFlight must be at least 1, was 0");
  }

  @Test
  void severalBatchesGoOutBeforeTheFirstIsAnsweredInArrivalOrderUpToMaxInFlight() throws Exception {
    List<List<Integer>> handed = new ArrayList<>();
    List<CompletableFuture<List<String>>> replies = new ArrayList<>();
    BatchQueue.Sender<Integer, String> pipelined =
        ops -> {
          CompletableFuture<List<String>> reply = new CompletableFuture<>();
          synchronized (handed) {
            handed.add(List.copyOf(ops));
            replies.add(reply);
          }
          return reply;
        };
    BatchQueue<Integer, String> queue = new BatchQueue<>(pipelined, 2, 3, sending, answering);

    List<CompletableFuture<String>> answers = new ArrayList<>();
    for (int op = 1; op <= 3; op++) {
      answers.add(queue.submit(op));
      int batches = op;
      waitUntil("batch " + op + " handed over", () -> queue.inFlightCount() == batches);
    }
    for (int op = 4; op <= 7; op++) {
      answers.add(queue.submit(op));
    }
    assertThat(queue.inFlightCount()).as("no more than maxInFlight").isEqualTo(3);
    assertThat(queue.queuedCount()).isEqualTo(4);

    replies.get(1).complete(List.of("answer 2")); // answers may come in any order
    waitUntil("the next batch handed over", () -> queue.queuedCount() == 2);
    replies.get(0).complete(List.of("answer 1"));
    replies.get(2).complete(List.of("answer 3"));
    waitUntil("the last batch handed over", () -> queue.queuedCount() == 0);
    synchronized (handed) {
      replies.get(3).complete(List.of("answer 4", "answer 5"));
      replies.get(4).complete(List.of("answer 6", "answer 7"));
    }

    for (int op = 1; op <= 7; op++) {
      assertThat(answers.get(op - 1).get(10, TimeUnit.SECONDS)).isEqualTo("answer " + op);
    }
    assertThat(handed)
        .containsExactly(List.of(1), List.of(2), List.of(3), List.of(4, 5), List.of(6, 7));
    assertThat(queue.flush(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void queuesTakeTurnsOnTheSendingSideSoABusyLimitCannotHoldUpAQuietOne() throws Exception {
    List<String> order = new ArrayList<>();
    RecordingSender<Integer, String> gate = new RecordingSender<>(op -> "gate");
    BatchQueue<Integer, String> gateQueue = new BatchQueue<>(gate, 1, 1, sending, answering);
    RecordingSender.Hold held = gate.holdNext();
    CompletableFuture<String> holding = gateQueue.submit(0); // holds the one sending thread
    held.awaitEntered();
    List<CompletableFuture<String>> busy = new ArrayList<>();
    for (int limit = 0; limit < 8; limit++) {
      String name = "busy-" + limit;
      BatchQueue<Integer, String> queue =
          new BatchQueue<>(
              BatchQueue.Sender.blocking(
                  ops -> {
                    synchronized (order) {
                      order.add(name);
                    }
                    return ops.stream().map(op -> name).toList();
                  }),
              1,
              1,
              sending,
              answering);
      for (int op = 0; op < 50; op++) {
        busy.add(queue.submit(op));
      }
    }
    BatchQueue<Integer, String> quiet =
        new BatchQueue<>(
            BatchQueue.Sender.blocking(
                ops -> {
                  synchronized (order) {
                    order.add("quiet");
                  }
                  return List.of("quiet");
                }),
            1,
            1,
            sending,
            answering);
    CompletableFuture<String> quietAnswer = quiet.submit(1);
    held.release();

    assertThat(quietAnswer.get(10, TimeUnit.SECONDS)).isEqualTo("quiet");
    assertThat(holding.get(10, TimeUnit.SECONDS)).isEqualTo("gate");
    CompletableFuture.allOf(busy.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    synchronized (order) {
      assertThat(order).hasSize(8 * 50 + 1);
      assertThat(order.indexOf("quiet"))
          .as("the quiet limit's batch waits for one batch of each busy limit at most")
          .isLessThanOrEqualTo(8);
    }
  }

  @Test
  void aCallParksUntilItsOwnAnswerWhileTheSendingSideServesOtherLimits() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    BatchQueue<Integer, String> queue = new BatchQueue<>(sender, 8, 1, sending, answering);
    RecordingSender.Hold held = sender.holdNext();
    CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> queue.call(1));
    held.awaitEntered();
    CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> queue.call(2));
    waitUntil("the second caller queued", () -> queue.queuedCount() == 1);

    assertThat(second).as("queued behind the batch in flight, not sent by its caller").isNotDone();
    held.release();

    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
    assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("answer 2");
    assertThat(sender.sent())
        .allSatisfy(batch -> assertThat(batch.thread().getName()).isEqualTo("queue-sending"));
  }

  private Thread start(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    started.add(thread);
    thread.start();
    return thread;
  }

  private void joinAll() throws InterruptedException {
    for (Thread thread : started) {
      thread.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(thread.isAlive()).as("%s ended within 10 s", thread.getName()).isFalse();
    }
  }

  /** Waits for a state the test drives the batch queue into, at most 10 s. */
  static void waitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not reached within 30 s: " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
