package dev.bulwark.it.cluster.harness;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;

/**
 * Lets every worker JVM begin at the same instant however long its boot took: each worker counts
 * itself ready and blocks on a list; the test waits for all of them, then pushes one start instant
 * per worker — a {@link System#nanoTime()} shortly in the future, comparable across the JVMs of one
 * Linux host — and every worker sleeps until it.
 */
public final class StartBarrier {

  private final UnifiedJedis redis;
  private final String prefix;

  public StartBarrier(UnifiedJedis redis, String prefix) {
    this.redis = redis;
    this.prefix = prefix;
  }

  /** Worker side: counts itself ready, waits for the start instant and sleeps until it. */
  public long arriveAndAwait(Duration timeout) throws InterruptedException {
    redis.incr(prefix + "ready");
    List<String> popped = redis.blpop((int) Math.max(1, timeout.toSeconds()), prefix + "go");
    if (popped == null || popped.size() < 2) {
      throw new IllegalStateException("no start signal within " + timeout);
    }
    long start = Long.parseLong(popped.get(1));
    sleepUntil(start);
    return start;
  }

  /**
   * Test side: waits until {@code workers} are ready, failing early with {@code whyNot} when a
   * worker has died; then starts them all {@code lead} from now. Returns the start instant.
   */
  public long awaitReadyAndRelease(
      int workers, Duration timeout, Duration lead, Supplier<String> whyNot) {
    awaitReady(workers, timeout, whyNot);
    long start = System.nanoTime() + lead.toNanos();
    release(workers, start);
    return start;
  }

  /** Test side: waits until {@code workers} are ready, failing early as above. */
  public void awaitReady(int workers, Duration timeout, Supplier<String> whyNot) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String ready = redis.get(prefix + "ready");
      if (ready != null && Long.parseLong(ready) >= workers) {
        return;
      }
      String problem = whyNot.get();
      if (problem != null) {
        throw new AssertionError("a worker failed before the start: " + problem);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "only " + ready + " of " + workers + " workers were ready within " + timeout);
      }
      sleepMillis(20);
    }
  }

  /** Test side: starts {@code workers} ready workers at {@code start} ({@link System#nanoTime}). */
  public void release(int workers, long start) {
    String[] copies = new String[workers];
    java.util.Arrays.fill(copies, String.valueOf(start));
    redis.rpush(prefix + "go", copies);
  }

  public static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
    }
  }

  public static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
