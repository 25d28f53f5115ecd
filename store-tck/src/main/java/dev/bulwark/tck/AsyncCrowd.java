package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * Many asynchronous callers on one bulkhead, their work done by a few threads: records when each
 * call's work started and ended, in which order the calls started and how many threads existed, and
 * checks that the bulkhead held (never more running than its limit), that calls started in the
 * order they asked (first come, first served), that all completed, and that waiting took no thread
 * per caller. Every store runs it through the engine's programmatic API.
 */
public final class AsyncCrowd {

  /**
   * Threads beyond the workers that may appear meanwhile: the engine's own (its store-call pool of
   * 8, which a batching store's posted releases and batches now keep busy, its scheduler, lease
   * renewer and outage probe) and the JVM's (JIT compilers …). A bound far below one per caller.
   */
  private static final int SPARE_THREADS = 16;

  /** The asynchronous entry under test: a handle's {@code callAsync}, or a guarded method. */
  @FunctionalInterface
  public interface Entry {
    CompletionStage<Integer> callAsync(Callable<CompletionStage<Integer>> work) throws Exception;
  }

  private AsyncCrowd() {}

  /** {@link #check(Entry, int, int, int, Duration)} through a bulkhead's programmatic handle. */
  public static void check(
      BulkheadHandle bulkhead, int limit, int callers, int workers, Duration timeout)
      throws Exception {
    check(bulkhead::callAsync, limit, callers, workers, timeout);
  }

  /**
   * Makes {@code callers} asynchronous calls, one after the other from this thread, through {@code
   * entry} (a bulkhead of {@code limit}, with a waiting time long enough for all), each doing a
   * short piece of work on a pool of {@code workers} threads, and checks the record.
   */
  public static void check(Entry entry, int limit, int callers, int workers, Duration timeout)
      throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    try {
      pool.submit(() -> null).get(); // the workers' threads count as the baseline
      long[] started = new long[callers];
      long[] ended = new long[callers];
      List<Integer> startOrder = new ArrayList<>(callers);
      int threadsBefore = threads.getThreadCount();
      threads.resetPeakThreadCount();
      // the work of the first calls waits until every call has asked: the bulkhead is full and
      // all others queue, however fast the first ones would be done
      CompletableFuture<Void> everyoneAsked = new CompletableFuture<>();
      List<CompletableFuture<Integer>> calls = new ArrayList<>(callers);
      for (int i = 0; i < callers; i++) {
        int call = i;
        calls.add(
            entry
                .callAsync(
                    () -> {
                      synchronized (startOrder) {
                        startOrder.add(call);
                      }
                      started[call] = System.nanoTime();
                      return everyoneAsked.thenApplyAsync(
                          ignored -> {
                            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
                            ended[call] = System.nanoTime();
                            return call;
                          },
                          pool);
                    })
                .toCompletableFuture());
      }
      everyoneAsked.complete(null);
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      int peakThreads = threads.getPeakThreadCount();

      assertThat(calls).allSatisfy(call -> assertThat(call).isCompleted());
      List<Integer> everyCall = IntStream.range(0, callers).boxed().toList();
      assertThat(calls.stream().map(CompletableFuture::join).toList())
          .as("each call returned its own result")
          .containsExactlyElementsOf(everyCall);
      synchronized (startOrder) {
        assertThat(startOrder)
            .as("calls started in the order they asked")
            .containsExactlyElementsOf(everyCall);
      }
      assertThat(mostAtOnce(started, ended))
          .as("most calls running at once (the bulkhead holds %d)", limit)
          .isEqualTo(limit);
      assertThat(peakThreads - threadsBefore)
          .as("threads added while %d calls waited", callers)
          .isLessThanOrEqualTo(SPARE_THREADS);
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /**
   * The most intervals {@code [started, ended]} that overlap at one instant. An interval that ends
   * where another starts does not overlap it: a release precedes the next start.
   */
  static int mostAtOnce(long[] started, long[] ended) {
    long[][] edges = new long[started.length * 2][];
    for (int i = 0; i < started.length; i++) {
      edges[2 * i] = new long[] {started[i], 1};
      edges[2 * i + 1] = new long[] {ended[i], -1};
    }
    Arrays.sort(
        edges, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int running = 0;
    int most = 0;
    for (long[] edge : edges) {
      running += (int) edge[1];
      most = Math.max(most, running);
    }
    return most;
  }
}
