package dev.bulwark.core.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.core.batch.RecordingSender.Sent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
 * The lane of one limit: who gets which answer, in which order and batches operations reach the
 * store, who sends, what a failing batch does, and what happens to posts, flushes and interrupts.
 * Each test holds a batch in the sender where it needs operations to queue, so what queues is
 * decided by the test, not by timing.
 */
@Timeout(60)
class LaneTest {

  private final ExecutorService background =
      Executors.newSingleThreadExecutor(task -> new Thread(task, "lane-background"));
  private final List<Thread> started = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Thread thread : started) {
      thread.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(thread.isAlive()).as("%s ended", thread.getName()).isFalse();
    }
    background.shutdownNow();
    assertThat(background.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aCallerAloneSendsItsOperationAtOnceOnItsOwnThreadInABatchOfOne() {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);

    assertThat(lane.call(7)).isEqualTo("answer 7");

    assertThat(sender.sent()).hasSize(1);
    assertThat(sender.sent().get(0).operations()).containsExactly(7);
    assertThat(sender.sent().get(0).thread()).isSameAs(Thread.currentThread());
    assertThat(lane.queuedCount()).isZero();
  }

  @Test
  void aSubmitOnAnIdleLaneIsSentOnTheCallingThreadAndCompleteOnReturn() {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);

    CompletableFuture<String> answer = lane.submit(3);

    assertThat(answer).isCompletedWithValue("answer 3");
    assertThat(sender.sent())
        .singleElement()
        .satisfies(
            batch -> {
              assertThat(batch.operations()).containsExactly(3);
              assertThat(batch.thread()).isSameAs(Thread.currentThread());
            });
  }

  @Test
  void operationsQueuedBehindABatchGoInArrivalOrderInBatchesOfAtMostMaxSize() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 4, background);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> lane.call(0));
    first.awaitEntered();

    List<CompletableFuture<String>> answers = new ArrayList<>();
    for (int op = 1; op <= 10; op++) {
      answers.add(op % 2 == 0 ? lane.submit(op) : lane.post(op));
    }
    assertThat(lane.queuedCount()).isEqualTo(10);
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
    Lane<Integer, String> lane = new Lane<>(sender, 5, background);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> lane.call(0));
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
            answer.set(lane.call(mine));
            if (Thread.currentThread().isInterrupted()) {
              answer.set("interrupted, though nobody interrupted it");
            }
          });
    }
    waitUntil("all callers queued", () -> lane.queuedCount() == callers);
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
  void aFailingBatchFailsEveryOperationInItAndTheLaneKeepsWorking() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);
    IllegalStateException storeDown = new IllegalStateException("store down");
    sender.failWhen(batch -> batch.contains(2) ? storeDown : null);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> lane.call(0));
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
              lane.call(mine);
            } catch (RuntimeException e) {
              failure.set(e);
            }
          });
      waitUntil("caller " + op + " queued", () -> lane.queuedCount() == mine);
    }
    CompletableFuture<String> submitted = lane.submit(4);
    CompletableFuture<String> posted = lane.post(5);
    first.release();
    joinAll();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    assertThat(failures).allSatisfy(failure -> assertThat(failure.get()).isSameAs(storeDown));
    assertThatThrownBy(() -> submitted.get(10, TimeUnit.SECONDS)).hasCause(storeDown);
    assertThatThrownBy(() -> posted.get(10, TimeUnit.SECONDS)).hasCause(storeDown);
    assertThat(sender.sent())
        .extracting(Sent::operations)
        .containsExactly(List.of(0), List.of(1, 2, 3, 4, 5));

    assertThat(lane.call(6)).isEqualTo("answer 6");
    assertThat(lane.submit(7)).isCompletedWithValue("answer 7");
  }

  @Test
  void aBatchAnsweredWithTheWrongNumberOfAnswersFailsEveryOperationInIt() {
    Lane<Integer, String> lane = new Lane<>(ops -> List.of("one", "two"), 8, background);

    assertThatThrownBy(() -> lane.call(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a batch of 1 operations got 2 answers");
  }

  @Test
  void anErrorOfTheSenderReachesTheCallerAndTheLaneKeepsWorking() {
    AtomicReference<Boolean> failing = new AtomicReference<>(true);
    Lane<Integer, String> lane =
        new Lane<>(
            ops -> {
              if (failing.getAndSet(false)) {
                throw new AssertionError("sender broke");
              }
              return List.of("fine");
            },
            8,
            background);

    assertThatThrownBy(() -> lane.call(1))
        .isInstanceOf(AssertionError.class)
        .hasMessage("sender broke");
    assertThat(lane.call(2)).isEqualTo("fine");
  }

  @Test
  void aCheckedExceptionThrownPastTheCompilerFailsTheBatchAndTheLaneKeepsWorking()
      throws Exception {
    IOException reset = new IOException("connection reset");
    AtomicReference<Boolean> failing = new AtomicReference<>(true);
    Lane<Integer, String> lane =
        new Lane<>(
            ops -> {
              if (failing.getAndSet(false)) {
                throw LaneTest.<RuntimeException>sneaky(reset);
              }
              return List.of("fine");
            },
            8,
            background);

    assertThatThrownBy(() -> lane.call(1)).isInstanceOf(CompletionException.class).hasCause(reset);
    assertThat(lane.flush(0, TimeUnit.SECONDS)).as("the lane is idle again").isTrue();
    assertThat(lane.call(2)).isEqualTo("fine");
  }

  /** Throws {@code failure} unchecked, as a sender in another JVM language may. */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable failure) throws T {
    throw (T) failure;
  }

  @Test
  void aPostOnAnIdleLaneIsSentByTheBackgroundNotByThePostingThread() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);
    RecordingSender.Hold held = sender.holdNext();

    CompletableFuture<String> posted = lane.post(1);

    held.awaitEntered(); // the post returned while its batch is still in the sender
    assertThat(posted).isNotDone();
    held.release();
    assertThat(posted.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
    assertThat(sender.sent())
        .singleElement()
        .satisfies(
            batch -> {
              assertThat(batch.operations()).containsExactly(1);
              assertThat(batch.thread().getName()).isEqualTo("lane-background");
            });
  }

  @Test
  void postsQueuedBehindACallAreSentByTheBackgroundOnceTheCallerHasItsAnswer() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 2, background);
    RecordingSender.Hold first = sender.holdNext();
    AtomicReference<Thread> caller = new AtomicReference<>();
    CompletableFuture<String> inFlight =
        CompletableFuture.supplyAsync(
            () -> {
              caller.set(Thread.currentThread());
              return lane.call(0);
            });
    first.awaitEntered();
    List<CompletableFuture<String>> posted = new ArrayList<>();
    for (int op = 1; op <= 5; op++) {
      posted.add(lane.post(op));
    }
    first.release();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    assertThat(lane.flush(10, TimeUnit.SECONDS)).isTrue();
    assertThat(posted).allSatisfy(answer -> assertThat(answer).isDone());
    List<Sent<Integer>> sent = sender.sent();
    assertThat(sent)
        .extracting(Sent::operations)
        .containsExactly(List.of(0), List.of(1, 2), List.of(3, 4), List.of(5));
    assertThat(sent.subList(1, sent.size()))
        .as("the caller sends nothing once it has its answer; nor does the posting thread")
        .allSatisfy(batch -> assertThat(batch.thread().getName()).isEqualTo("lane-background"));
  }

  @Test
  void aPostedOperationIsNeverSentInsideThePostOfManyThreads() throws Exception {
    ThreadLocal<Boolean> posting = ThreadLocal.withInitial(() -> false);
    List<Integer> sentInsideAPost = new ArrayList<>();
    Lane<Integer, Integer> lane =
        new Lane<>(
            ops -> {
              if (posting.get()) {
                synchronized (sentInsideAPost) {
                  sentInsideAPost.addAll(ops);
                }
              }
              return ops;
            },
            3,
            background);
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
                answer = lane.post(base + i);
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

    assertThat(lane.flush(30, TimeUnit.SECONDS)).isTrue();
    assertThat(posted)
        .hasSize(threads * postsEach)
        .allSatisfy(answer -> assertThat(answer).isDone());
    assertThat(sentInsideAPost).isEmpty();
  }

  @Test
  void flushWaitsUntilThePostedOperationsAreSent() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);
    RecordingSender.Hold held = sender.holdNext();
    CompletableFuture<String> first = lane.post(1);
    held.awaitEntered();
    CompletableFuture<String> second = lane.post(2);

    assertThat(lane.flush(50, TimeUnit.MILLISECONDS)).as("flushed while a batch is held").isFalse();
    assertThat(second).isNotDone();

    held.release();
    assertThat(lane.flush(10, TimeUnit.SECONDS)).isTrue();
    assertThat(first).isCompletedWithValue("answer 1");
    assertThat(second).isCompletedWithValue("answer 2");
    assertThat(lane.queuedCount()).isZero();
    assertThat(lane.flush(0, TimeUnit.SECONDS)).as("an idle lane is flushed at once").isTrue();
    assertThat(CompletableFuture.supplyAsync(() -> lane.call(3)).get(10, TimeUnit.SECONDS))
        .as("another thread uses the lane after the flush")
        .isEqualTo("answer 3");
  }

  @Test
  void anInterruptedFlushReturnsAtOnceAndKeepsTheInterrupt() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);
    RecordingSender.Hold held = sender.holdNext();
    CompletableFuture<String> posted = lane.post(1);
    held.awaitEntered();

    Thread.currentThread().interrupt();
    boolean flushed;
    try {
      flushed = lane.flush(1, TimeUnit.HOURS);
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
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> lane.call(0));
    first.awaitEntered();
    AtomicReference<String> answer = new AtomicReference<>();
    AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
    Thread caller =
        start(
            "interrupted-caller",
            () -> {
              answer.set(lane.call(1));
              interruptedAfter.set(Thread.currentThread().isInterrupted());
            });
    waitUntil("the caller queued", () -> lane.queuedCount() == 1);
    caller.interrupt();
    waitUntil("the caller parked again", () -> caller.getState() == Thread.State.WAITING);
    first.release();
    joinAll();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    assertThat(answer.get()).isEqualTo("answer 1");
    assertThat(interruptedAfter.get()).as("the interrupt is kept for the caller").isTrue();
  }

  @Test
  void aCallerInterruptedWhileWaitingSendsTheNextBatchUninterruptedAndKeepsItsInterrupt()
      throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> lane.call(0));
    first.awaitEntered();
    AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
    Thread appointed =
        start(
            "appointed-caller",
            () -> {
              lane.call(1);
              interruptedAfter.set(Thread.currentThread().isInterrupted());
            });
    waitUntil("the caller queued", () -> lane.queuedCount() == 1);
    CompletableFuture<String> othersOperation = lane.submit(2);
    appointed.interrupt();
    waitUntil("the caller parked again", () -> appointed.getState() == Thread.State.WAITING);
    first.release();
    joinAll();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    assertThat(othersOperation.get(10, TimeUnit.SECONDS)).isEqualTo("answer 2");
    Sent<Integer> second = sender.sent().get(1);
    assertThat(second.operations()).containsExactly(1, 2);
    assertThat(second.thread()).isSameAs(appointed);
    // the batch carries another caller's operation: an interrupted thread's store call may be cut
    // short (a virtual thread's socket, a pool's interruptible wait), failing them all
    assertThat(second.interrupted()).as("the appointed sender sends uninterrupted").isFalse();
    assertThat(interruptedAfter.get()).as("the interrupt is kept for the caller").isTrue();
  }

  @Test
  void anInterruptOfTheAppointedSenderDoesNotFailTheOtherOperationsOfItsBatch() throws Exception {
    // a store reached through a pool whose wait throws when the borrowing thread is interrupted,
    // as a connection pool's does: a sender never waits in it for an interrupt of its own
    ArrayBlockingQueue<String> pool = new ArrayBlockingQueue<>(1, false, List.of("connection"));
    RecordingSender<Integer, String> sender =
        new RecordingSender<>(
            op -> {
              String connection;
              try {
                connection = pool.poll(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a connection", e);
              }
              pool.add(connection);
              return "answer " + op;
            });
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> lane.call(0));
    first.awaitEntered();
    AtomicReference<Object> appointedGot = new AtomicReference<>();
    Thread appointed =
        start(
            "appointed-caller",
            () -> {
              try {
                appointedGot.set(lane.call(1));
              } catch (RuntimeException e) {
                appointedGot.set(e);
              }
            });
    waitUntil("the caller queued", () -> lane.queuedCount() == 1);
    CompletableFuture<String> othersOperation = lane.submit(2);
    appointed.interrupt();
    waitUntil("the caller parked again", () -> appointed.getState() == Thread.State.WAITING);
    first.release();
    joinAll();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 0");
    assertThat(sender.sent().get(1).thread()).isSameAs(appointed);
    assertThat(othersOperation.get(10, TimeUnit.SECONDS)).isEqualTo("answer 2");
    assertThat(appointedGot.get()).isEqualTo("answer 1");
  }

  @Test
  void anInterruptBeforeTheCallIsKeptAndTheOperationStillSent() {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);

    Thread.currentThread().interrupt();
    String answer;
    try {
      answer = lane.call(1);
    } finally {
      assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
    }

    assertThat(answer).isEqualTo("answer 1");
    assertThat(sender.sent()).singleElement().satisfies(b -> assertThat(b.interrupted()).isFalse());
  }

  @Test
  void aSubmitByAnInterruptedThreadIsSentUninterruptedAndTheInterruptKept() {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);

    Thread.currentThread().interrupt();
    CompletableFuture<String> answer;
    try {
      answer = lane.submit(1);
    } finally {
      assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
    }

    assertThat(answer).isCompletedWithValue("answer 1");
    assertThat(sender.sent()).singleElement().satisfies(b -> assertThat(b.interrupted()).isFalse());
  }

  @Test
  void whenTheBackgroundRejectsWorkTheOperationsAreStillSent() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane =
        new Lane<>(
            sender,
            8,
            task -> {
              throw new RejectedExecutionException("the engine is closed");
            });

    assertThat(lane.post(1)).as("sent on the posting thread").isCompletedWithValue("answer 1");

    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> lane.call(2));
    first.awaitEntered();
    CompletableFuture<String> posted = lane.post(3);
    first.release();

    assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("answer 2");
    assertThat(posted.get(10, TimeUnit.SECONDS)).isEqualTo("answer 3");
    assertThat(lane.flush(10, TimeUnit.SECONDS)).isTrue();
    assertThat(sender.operationsInOrder()).containsExactly(1, 2, 3);
  }

  @Test
  void aCallFromAStageItsOwnBatchCompletesFailsAtOnceAndTheLaneKeepsWorking() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 8, background);
    AtomicReference<Throwable> reentered = new AtomicReference<>();
    RecordingSender.Hold held = sender.holdNext();
    CompletableFuture<String> post = lane.post(1);
    held.awaitEntered(); // the stage completes after its dependent is attached

    CompletableFuture<String> posted =
        post.whenComplete(
            (answer, failure) -> {
              try {
                lane.call(2); // on the background thread, inside the batch that answered 1
              } catch (RuntimeException e) {
                reentered.set(e);
              }
            });
    held.release();

    assertThat(posted.get(10, TimeUnit.SECONDS)).isEqualTo("answer 1");
    assertThat(reentered.get())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Lane.call was made on the thread sending this lane's batch");
    assertThat(lane.call(3)).isEqualTo("answer 3");
    assertThat(sender.operationsInOrder()).containsExactly(1, 3);
  }

  @Test
  void aCallFromTheSenderItselfFailsTheBatchRatherThanWaitForever() {
    AtomicReference<Lane<Integer, String>> self = new AtomicReference<>();
    Lane<Integer, String> lane =
        new Lane<>(
            ops -> {
              if (ops.contains(1)) {
                self.get().call(2);
              }
              return List.of("answer");
            },
            8,
            background);
    self.set(lane);

    assertThatThrownBy(() -> lane.call(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("it would wait for a batch only this thread sends");
    assertThat(lane.call(3)).isEqualTo("answer");
  }

  @Test
  void aMaxSizeOfOneSendsEachOperationAlone() throws Exception {
    RecordingSender<Integer, String> sender = new RecordingSender<>(op -> "answer " + op);
    Lane<Integer, String> lane = new Lane<>(sender, 1, background);
    RecordingSender.Hold first = sender.holdNext();
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> lane.call(0));
    first.awaitEntered();
    CompletableFuture<String> one = lane.submit(1);
    CompletableFuture<String> two = lane.post(2);
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
    assertThatThrownBy(() -> new Lane<Integer, String>(ops -> List.of(), 0, background))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxSize must be at least 1, was 0");
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

  /** Waits for a state the test drives the lane into, at most 10 s. */
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
