package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.Bulwark;
import dev.bulwark.LockHandle;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimiterHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * Many limits at once under every kind of caller, for a store's liveness test: six synchronous
 * threads on narrow bulkheads, read and write locks on a few keys and two rate limits (a thread
 * interrupts one of them every 50 ms), and asynchronous calls fired from event loops every
 * millisecond on a wide bulkhead and a narrow one. Every call is recorded; {@link #assertLive}
 * judges that each ended within its waiting time plus a bound, so a limit that stalls, for any
 * caller, shows. The store's test starts the engine with {@link #limits()} and judges flush and
 * close itself.
 */
public final class LivenessRun {

  /** Event loops the run fires calls from: Vert.x's, or any that call {@code tick} on a loop. */
  @FunctionalInterface
  public interface Loops {
    /** Calls {@code tick} on an event loop every {@code millis}, until the handle is closed. */
    AutoCloseable every(long millis, Runnable tick);
  }

  /** One call as it happened, on this JVM's monotonic clock. */
  public record Call(String limit, long waitNanos, long startNanos, long endNanos, String outcome) {
    long overNanos() {
      return endNanos - startNanos - waitNanos;
    }

    boolean granted() {
      return outcome.equals("granted");
    }
  }

  private static final long NARROW_WAIT_MILLIS = 300;
  private static final long WIDE_WAIT_MILLIS = 5_000;
  private static final long SMOOTH_WAIT_MILLIS = 100;

  private LivenessRun() {}

  /** The limits the run calls, as configuration keys. */
  public static Map<String, String> limits() {
    Map<String, String> config = new java.util.HashMap<>();
    for (int i = 0; i < 4; i++) {
      config.put("bulwark.bulkhead.narrow-" + i + ".value", "2");
      config.put("bulwark.bulkhead.narrow-" + i + ".waiting-time", NARROW_WAIT_MILLIS + "ms");
    }
    config.put("bulwark.bulkhead.wide.value", "10000");
    config.put("bulwark.bulkhead.wide.waiting-time", WIDE_WAIT_MILLIS + "ms");
    config.put("bulwark.lock.accounts.waiting-time", NARROW_WAIT_MILLIS + "ms");
    config.put("bulwark.rate-limit.smooth.value", "200");
    config.put("bulwark.rate-limit.smooth.window", "1s");
    config.put("bulwark.rate-limit.smooth.waiting-time", SMOOTH_WAIT_MILLIS + "ms");
    config.put("bulwark.rate-limit.fixed.value", "50");
    config.put("bulwark.rate-limit.fixed.window", "1s");
    config.put("bulwark.rate-limit.fixed.type", "FIXED");
    return config;
  }

  /**
   * Calls for {@code length}, the event loops firing one call on each of their two bulkheads every
   * {@code fireEveryMillis}, then waits for every call to end (at most the longest waiting time
   * plus {@code bound} after the run) and returns the record. A store whose batches hold a thread
   * for a transaction serves fewer calls a second: fire at a rate it serves, since a call queued
   * behind more than its store can serve waits for its turn in the batch queue.
   */
  public static List<Call> run(
      Bulwark bulwark, Loops loops, long fireEveryMillis, Duration length, Duration bound)
      throws Exception {
    ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
    List<CompletableFuture<?>> asyncCalls = new ArrayList<>();
    AtomicBoolean running = new AtomicBoolean(true);
    List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      Random random = new Random(t);
      Thread caller =
          new Thread(
              () -> callSynchronously(bulwark, random, running, calls), "liveness-sync-" + t);
      callers.add(caller);
      caller.start();
    }
    Thread interrupter =
        new Thread(
            () -> {
              Random random = new Random(99);
              while (running.get()) {
                callers.get(random.nextInt(callers.size())).interrupt();
                sleepQuietly(50);
              }
            },
            "liveness-interrupter");
    interrupter.start();
    List<AutoCloseable> timers = new ArrayList<>();
    timers.add(
        fire(
            bulwark.bulkhead("wide"),
            WIDE_WAIT_MILLIS,
            fireEveryMillis,
            loops,
            running,
            calls,
            asyncCalls));
    timers.add(
        fire(
            bulwark.bulkhead("narrow-0"),
            NARROW_WAIT_MILLIS,
            fireEveryMillis,
            loops,
            running,
            calls,
            asyncCalls));
    try {
      Thread.sleep(length.toMillis());
    } finally {
      running.set(false);
      for (AutoCloseable timer : timers) {
        timer.close();
      }
    }
    long endBy = TimeUnit.MILLISECONDS.toNanos(WIDE_WAIT_MILLIS) + bound.toNanos();
    interrupter.join(TimeUnit.NANOSECONDS.toMillis(endBy));
    for (Thread caller : callers) {
      caller.join(TimeUnit.NANOSECONDS.toMillis(endBy));
      assertThat(caller.isAlive()).as("%s ended", caller.getName()).isFalse();
    }
    List<CompletableFuture<?>> issued;
    synchronized (asyncCalls) {
      issued = new ArrayList<>(asyncCalls);
    }
    CompletableFuture.allOf(issued.toArray(CompletableFuture[]::new))
        .handle((value, failure) -> null)
        .get(endBy, TimeUnit.NANOSECONDS);
    return new ArrayList<>(calls);
  }

  /**
   * The whole check on one engine: {@link #run}, then the engine's flush returns within {@code
   * bound}, its close returns within {@code bound}, and {@link #assertLive}.
   *
   * @param flush the engine's flush: whether it was idle within the timeout
   * @param close the engine's close
   */
  public static void check(
      Bulwark bulwark,
      Predicate<Duration> flush,
      Runnable close,
      Loops loops,
      long fireEveryMillis,
      Duration length,
      Duration bound)
      throws Exception {
    List<Call> calls;
    try {
      calls = run(bulwark, loops, fireEveryMillis, length, bound);
      assertThat(flush.test(bound)).as("flush returns within %s", bound).isTrue();
    } finally {
      long closing = System.nanoTime();
      close.run();
      assertThat(Duration.ofNanos(System.nanoTime() - closing))
          .as("close returns promptly")
          .isLessThan(bound);
    }
    assertLive(calls, bound);
  }

  /**
   * Every call ended within its waiting time plus {@code bound}; the event loops' calls and the
   * grants were many (a run that did nothing proves nothing).
   */
  public static void assertLive(List<Call> calls, Duration bound) {
    assertThat(calls.stream().filter(c -> c.limit().equals("wide")).count())
        .as("asynchronous calls on the wide bulkhead that ended")
        .isGreaterThan(1000);
    assertThat(calls.stream().filter(Call::granted).count())
        .as("calls granted")
        .isGreaterThan(1000);
    assertThat(calls)
        .as("calls that ended later than their waiting time plus %s", bound)
        .filteredOn(call -> call.overNanos() > bound.toNanos())
        .isEmpty();
  }

  private static AutoCloseable fire(
      BulkheadHandle target,
      long waitMillis,
      long everyMillis,
      Loops loops,
      AtomicBoolean running,
      ConcurrentLinkedQueue<Call> calls,
      List<CompletableFuture<?>> asyncCalls) {
    long waitNanos = TimeUnit.MILLISECONDS.toNanos(waitMillis);
    return loops.every(
        everyMillis,
        () -> {
          if (!running.get()) {
            return;
          }
          long start = System.nanoTime();
          CompletableFuture<String> call =
              target
                  .callAsync(() -> CompletableFuture.completedFuture("done"))
                  .toCompletableFuture()
                  .handle(
                      (value, failure) -> {
                        calls.add(
                            new Call(
                                target.name(),
                                waitNanos,
                                start,
                                System.nanoTime(),
                                failure == null ? "granted" : failure.getClass().getName()));
                        return value;
                      });
          synchronized (asyncCalls) {
            asyncCalls.add(call);
          }
        });
  }

  private static void callSynchronously(
      Bulwark bulwark, Random random, AtomicBoolean running, ConcurrentLinkedQueue<Call> calls) {
    LockHandle accounts = bulwark.lock("accounts");
    RateLimiterHandle smooth = bulwark.rateLimiter("smooth");
    RateLimiterHandle fixed = bulwark.rateLimiter("fixed");
    while (running.get()) {
      int pick = random.nextInt(4);
      String limit =
          switch (pick) {
            case 0 -> "narrow-" + random.nextInt(4);
            case 1 -> "accounts";
            case 2 -> "smooth";
            default -> "fixed";
          };
      long waitNanos =
          TimeUnit.MILLISECONDS.toNanos(
              switch (pick) {
                case 0, 1 -> NARROW_WAIT_MILLIS;
                case 2 -> SMOOTH_WAIT_MILLIS;
                default -> 0;
              });
      long start = System.nanoTime();
      String outcome;
      try {
        switch (pick) {
          case 0 -> bulwark.bulkhead(limit).call(() -> work(random));
          case 1 ->
              accounts.call(
                  "k" + random.nextInt(8),
                  random.nextInt(4) == 0 ? LockMode.WRITE : LockMode.READ,
                  () -> work(random));
          case 2 -> smooth.call(() -> work(random));
          default -> fixed.call(() -> work(random));
        }
        outcome = "granted";
      } catch (Exception e) {
        outcome = e.getClass().getName();
      }
      Thread.interrupted(); // an interrupt meant for one wait is not carried into the next call
      calls.add(new Call(limit, waitNanos, start, System.nanoTime(), outcome));
    }
  }

  private static String work(Random random) {
    if (random.nextInt(10) == 0) {
      sleepQuietly(2);
    }
    return "done";
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
