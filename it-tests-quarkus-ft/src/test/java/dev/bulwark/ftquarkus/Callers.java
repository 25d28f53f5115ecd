package dev.bulwark.ftquarkus;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;

/** Callers held inside a method by a gate until the test lets them out. */
final class Callers implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final Gate gate = new Gate();
  private final ExecutorService pool;
  private final List<CompletableFuture<String>> calls;

  /** Starts {@code count} calls and returns once all of them are inside the method. */
  static Callers holding(int count, Function<Gate, String> call) throws InterruptedException {
    return new Callers(count, call);
  }

  private Callers(int count, Function<Gate, String> call) throws InterruptedException {
    pool = Executors.newFixedThreadPool(count);
    calls =
        IntStream.range(0, count)
            .mapToObj(i -> CompletableFuture.supplyAsync(() -> call.apply(gate), pool))
            .toList();
    try {
      gate.awaitInside(count, TIMEOUT);
    } catch (RuntimeException | InterruptedException e) {
      close();
      throw e;
    }
  }

  /** Lets every held caller out and waits for all of them to return. */
  List<String> release() {
    gate.open();
    return calls.stream().map(call -> call.orTimeout(10, TimeUnit.SECONDS).join()).toList();
  }

  @Override
  public void close() {
    gate.open();
    pool.shutdownNow();
  }
}
