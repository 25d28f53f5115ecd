package dev.bulwark.core.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.tck.ThreadStacks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads on one lane, each alternating a call it waits for and a post it does not (as a
 * guarded method acquires, then releases): the lane is handed from sender to sender, and the record
 * of every batch (its operations, who sent it, which call that thread was in) shows that no caller
 * sent a batch after its own answer came, that posts were never sent inside the post, that no two
 * batches overlapped, and that every operation was sent once, in each thread's order.
 */
@Timeout(120)
class LaneHandOffTest {

  private static final int THREADS = 8;
  private static final int ROUNDS = 300;
  private static final int MAX_SIZE = 4;

  /** One operation: which thread made it, its place in that thread's sequence, and its kind. */
  record Op(int thread, int seq, boolean posted) {}

  /** A batch as sent: the sender's thread, and the call it was waiting for (null: none). */
  record Batch(List<Op> ops, String sender, Op sendersCall, boolean sentInsideAPost) {}

  private final ExecutorService background =
      Executors.newFixedThreadPool(2, task -> new Thread(task, "lane-background"));
  private final ThreadLocal<Op> currentCall = new ThreadLocal<>();
  private final ThreadLocal<Boolean> posting = ThreadLocal.withInitial(() -> false);
  private final List<Batch> batches = new ArrayList<>(); // guarded by itself
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger overlaps = new AtomicInteger();
  private volatile Lane<Op, Op> lane;

  /** Set when the first batch's sender gave up waiting for the other callers. */
  private volatile AssertionError hung;

  @AfterEach
  void stop() throws InterruptedException {
    background.shutdownNow();
    assertThat(background.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void noCallerSendsAfterItsAnswerCameAndEveryOperationIsSentOnceInItsThreadsOrder()
      throws Exception {
    Lane<Op, Op> lane = new Lane<>(this::send, MAX_SIZE, background);
    this.lane = lane;
    CyclicBarrier start = new CyclicBarrier(THREADS);
    List<Thread> threads = new ArrayList<>();
    AtomicInteger wrongAnswers = new AtomicInteger();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Thread worker =
          new Thread(
              () -> {
                try {
                  start.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                for (int round = 0; round < ROUNDS; round++) {
                  Op call = new Op(thread, 2 * round, false);
                  currentCall.set(call);
                  if (lane.call(call) != call) {
                    wrongAnswers.incrementAndGet();
                  }
                  currentCall.remove();
                  posting.set(true);
                  try {
                    lane.post(new Op(thread, 2 * round + 1, true));
                  } finally {
                    posting.set(false);
                  }
                }
              },
              "caller-" + t);
      threads.add(worker);
      worker.start();
    }
    for (Thread worker : threads) {
      worker.join(TimeUnit.SECONDS.toMillis(100));
      assertThat(worker.isAlive()).as("%s ended", worker.getName()).isFalse();
    }
    assertThat(hung).as("the first batch's wait for the others").isNull();
    assertThat(lane.flush(10, TimeUnit.SECONDS)).isTrue();

    List<Batch> sent;
    synchronized (batches) {
      sent = List.copyOf(batches);
    }
    assertThat(wrongAnswers).hasValue(0);
    assertThat(overlaps).as("batches in flight at once").hasValue(0);
    assertThat(sent)
        .allSatisfy(
            batch -> assertThat(batch.ops()).isNotEmpty().hasSizeLessThanOrEqualTo(MAX_SIZE));
    assertThat(sent).noneMatch(Batch::sentInsideAPost);

    assertThat(sent.get(1).ops()).as("the callers queued behind the first").hasSize(MAX_SIZE);
    assertThat(sent.get(1).sender())
        .as("the oldest queued caller sends the second batch")
        .isNotEqualTo(sent.get(0).sender())
        .startsWith("caller-");

    // every operation once, each thread's in the order it made them
    Map<Integer, Integer> nextSeq = new HashMap<>();
    Map<Op, Integer> batchOf = new HashMap<>();
    for (int b = 0; b < sent.size(); b++) {
      for (Op op : sent.get(b).ops()) {
        int expected = nextSeq.getOrDefault(op.thread(), 0);
        assertThat(op.seq()).as("operation of thread %d", op.thread()).isEqualTo(expected);
        nextSeq.put(op.thread(), expected + 1);
        batchOf.put(op, b);
      }
    }
    for (int t = 0; t < THREADS; t++) {
      assertThat(nextSeq.get(t)).as("operations of thread %d sent", t).isEqualTo(2 * ROUNDS);
    }

    // a caller sends only while it waits: its own call goes in this batch or a later one
    for (int b = 0; b < sent.size(); b++) {
      Batch batch = sent.get(b);
      if (batch.sender().equals("lane-background")) {
        assertThat(batch.sendersCall()).isNull();
        continue;
      }
      assertThat(batch.sendersCall())
          .as("batch %d was sent by %s outside any call", b, batch.sender())
          .isNotNull();
      assertThat(batchOf.get(batch.sendersCall()))
          .as("batch %d: %s sent it after its own answer came", b, batch.sender())
          .isGreaterThanOrEqualTo(b);
    }
  }

  private List<Op> send(List<Op> ops) {
    if (inFlight.incrementAndGet() > 1) {
      overlaps.incrementAndGet();
    }
    try {
      Batch batch =
          new Batch(
              List.copyOf(ops), Thread.currentThread().getName(), currentCall.get(), posting.get());
      boolean first;
      synchronized (batches) {
        first = batches.isEmpty();
        batches.add(batch);
      }
      if (first) {
        // the first batch stays in flight until every other thread queued its first call, so
        // the lane is handed from caller to caller at least from there on; a caller that queued
        // before the first sender took its batch is in that batch already
        awaitOthersQueued(THREADS - ops.size());
      }
      Thread.yield(); // a store call takes a while: let others queue behind it
      return ops;
    } finally {
      inFlight.decrementAndGet();
    }
  }

  /**
   * Waits until the {@code others} callers not in the first batch queued; when they do not within
   * 30 s, fails with every thread's stack, so that a run that hangs here says where the callers
   * are.
   */
  private void awaitOthersQueued(int others) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (lane.queuedCount() != others) {
      if (System.nanoTime() - deadline > 0) {
        hung =
            new AssertionError(
                "the other callers did not queue within 30 s ("
                    + lane.queuedCount()
                    + " of "
                    + others
                    + " queued); the threads:"
                    + ThreadStacks.all());
        throw hung;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
