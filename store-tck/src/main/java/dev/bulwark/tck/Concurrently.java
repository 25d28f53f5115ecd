package dev.bulwark.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs tasks on threads of their own, released together, and waits for all with a bound. */
final class Concurrently {

  /** One task; {@code index} tells the threads apart. */
  @FunctionalInterface
  interface Task {
    void run(int index) throws Exception;
  }

  private Concurrently() {}

  /** Runs {@code task} on {@code threads} threads at once; rethrows the first failure. */
  static void run(int threads, Duration timeout, Task task) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int index = i;
        running.add(
            pool.submit(
                () -> {
                  start.await();
                  task.run(index);
                  return null;
                }));
      }
      start.countDown();
      long deadline = System.nanoTime() + timeout.toNanos();
      for (Future<?> future : running) {
        try {
          future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof Error error) {
            throw error;
          }
          throw new AssertionError(cause);
        } catch (TimeoutException e) {
          throw new AssertionError(threads + " concurrent tasks did not end within " + timeout);
        }
      }
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
