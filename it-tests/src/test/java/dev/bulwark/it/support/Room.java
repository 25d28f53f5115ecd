package dev.bulwark.it.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * What happened inside a guarded method: who entered in which order, how many were inside at once,
 * and each visit's interval (by a global event sequence and by {@link System#nanoTime()}). A
 * visitor that {@link #occupy occupies} the room stays until the test {@link #release releases} it,
 * so the test decides when permits come free.
 */
public final class Room {

  /** One stay in the room. Sequence numbers are globally ordered across every room. */
  public record Visit(int id, long enterSeq, long exitSeq, long enterNanos, long exitNanos) {
    public boolean overlaps(Visit other) {
      return enterSeq < other.exitSeq && other.enterSeq < exitSeq;
    }
  }

  private static final AtomicLong SEQUENCE = new AtomicLong();

  /** No visitor is ever held longer than this, so a broken test cannot hang the build. */
  public static final Duration MAX_HOLD = Duration.ofSeconds(10);

  private final String name;
  private final Map<Integer, CountDownLatch> releases = new ConcurrentHashMap<>();
  private final List<Integer> entryOrder = new ArrayList<>();
  private final List<Visit> visits = new ArrayList<>();
  private final Map<Integer, long[]> open = new ConcurrentHashMap<>();
  private volatile boolean releasedAll;
  private int inside;
  private int maxInside;
  private int entered;
  private int exited;

  public Room(String name) {
    this.name = name;
  }

  /** Enters, waits until the test releases {@code id} (at most {@link #MAX_HOLD}), leaves. */
  public void occupy(int id) {
    enter(id);
    try {
      CountDownLatch release = releases.computeIfAbsent(id, k -> new CountDownLatch(1));
      if (!releasedAll && !release.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(name + ": visitor " + id + " was never released");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(name + ": visitor " + id + " interrupted", e);
    } finally {
      exit(id);
    }
  }

  /** Enters and leaves at once. */
  public void pass(int id) {
    enter(id);
    exit(id);
  }

  public synchronized void enter(int id) {
    long seq = SEQUENCE.incrementAndGet();
    open.put(id, new long[] {seq, System.nanoTime()});
    inside++;
    maxInside = Math.max(maxInside, inside);
    entered++;
    entryOrder.add(id);
    notifyAll();
  }

  public synchronized void exit(int id) {
    long[] start = open.remove(id);
    long seq = SEQUENCE.incrementAndGet();
    inside--;
    exited++;
    visits.add(new Visit(id, start[0], seq, start[1], System.nanoTime()));
    notifyAll();
  }

  /** Lets visitor {@code id} leave (now, or as soon as it arrives). */
  public void release(int id) {
    releases.computeIfAbsent(id, k -> new CountDownLatch(1)).countDown();
  }

  /** Lets every visitor, present and future, leave. */
  public void releaseAll() {
    releasedAll = true;
    releases.values().forEach(CountDownLatch::countDown);
  }

  /** Waits until {@code count} entries have happened in total; fails after {@code timeout}. */
  public synchronized void awaitEntered(int count, Duration timeout) {
    awaitCondition(() -> entered >= count, timeout, "entered >= " + count);
  }

  /** Waits until {@code count} exits have happened in total; fails after {@code timeout}. */
  public synchronized void awaitExited(int count, Duration timeout) {
    awaitCondition(() -> exited >= count, timeout, "exited >= " + count);
  }

  private void awaitCondition(BooleanSupplier done, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!done.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError(
              name + ": timed out after " + timeout + " waiting for " + what + "; " + this);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(name + ": interrupted waiting for " + what, e);
    }
  }

  public synchronized int inside() {
    return inside;
  }

  public synchronized int maxInside() {
    return maxInside;
  }

  public synchronized int entered() {
    return entered;
  }

  public synchronized List<Integer> entryOrder() {
    return List.copyOf(entryOrder);
  }

  public synchronized List<Visit> visits() {
    return List.copyOf(visits);
  }

  @Override
  public synchronized String toString() {
    return name
        + "[inside="
        + inside
        + ", max="
        + maxInside
        + ", entered="
        + entered
        + ", exited="
        + exited
        + ", order="
        + entryOrder
        + "]";
  }
}
