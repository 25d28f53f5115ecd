package dev.bulwark.core.rate;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Grant times in ascending order, as an immutable value that costs O(1) amortised to extend or to
 * shorten at its head, however long it is.
 *
 * <p>Successive logs of one limit share a buffer. Each log is a range of it; a slot, once written,
 * never changes. Dropping expired times moves the start of the range; appending writes the next
 * free slot in place when this log ends where the buffer's written part ends (the usual case: the
 * store always extends its newest state), and otherwise, or when the buffer is full, copies the
 * live range into a new buffer twice its size. Each copy is paid for by the appends since the last
 * one.
 */
public final class GrantLog implements GrantTimes {

  static final GrantLog EMPTY = new GrantLog(new Buffer(new long[0], 0), 0, 0);

  private static final int MIN_CAPACITY = 8;
  private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

  private final Buffer buffer;
  private final int start;
  private final int end;

  private GrantLog(Buffer buffer, int start, int end) {
    this.buffer = buffer;
    this.start = start;
    this.end = end;
  }

  /** A log of {@code ascending} (copied). */
  static GrantLog of(long[] ascending) {
    for (int i = 1; i < ascending.length; i++) {
      if (ascending[i] < ascending[i - 1]) {
        throw new IllegalArgumentException(
            "Grant times must be ascending: " + ascending[i - 1] + " before " + ascending[i]);
      }
    }
    if (ascending.length == 0) {
      return EMPTY;
    }
    long[] times = Arrays.copyOf(ascending, capacityFor(ascending.length));
    return new GrantLog(new Buffer(times, ascending.length), 0, ascending.length);
  }

  @Override
  public int size() {
    return end - start;
  }

  @Override
  public long get(int index) {
    if (index < 0 || index >= size()) {
      throw new IndexOutOfBoundsException("Index " + index + " of a log of " + size());
    }
    return buffer.times[start + index];
  }

  /** The grant times, ascending, in a new array. */
  public long[] toArray() {
    return Arrays.copyOfRange(buffer.times, start, end);
  }

  /** This log without its {@code count} oldest times. */
  GrantLog withoutOldest(int count) {
    if (count == 0) {
      return this;
    }
    if (count >= size()) {
      return EMPTY;
    }
    return new GrantLog(buffer, start + count, end);
  }

  /** This log with {@code time} (no earlier than its newest) added. */
  GrantLog append(long time) {
    if (end < buffer.times.length && buffer.written.compareAndSet(end, end + 1)) {
      buffer.times[end] = time;
      return new GrantLog(buffer, start, end + 1);
    }
    int size = size();
    long[] times = new long[capacityFor(size + 1)];
    System.arraycopy(buffer.times, start, times, 0, size);
    times[size] = time;
    return new GrantLog(new Buffer(times, size + 1), 0, size + 1);
  }

  /** Whether this log and {@code other} are ranges of one buffer (no copy between them). */
  boolean sharesStorageWith(GrantLog other) {
    return buffer == other.buffer;
  }

  private static int capacityFor(int size) {
    if (size > MAX_CAPACITY) {
      throw new IllegalStateException("A rolling rate log cannot hold " + size + " grants");
    }
    return (int) Math.min(MAX_CAPACITY, Math.max(MIN_CAPACITY, 2L * size));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof GrantLog log
        && Arrays.equals(buffer.times, start, end, log.buffer.times, log.start, log.end);
  }

  @Override
  public int hashCode() {
    int hash = 1;
    for (int i = start; i < end; i++) {
      hash = 31 * hash + Long.hashCode(buffer.times[i]);
    }
    return hash;
  }

  @Override
  public String toString() {
    return size() <= 8
        ? Arrays.toString(toArray())
        : "[" + get(0) + " … " + get(size() - 1) + " (" + size() + " grants)]";
  }

  /**
   * Storage shared by successive logs: the slots below {@code written} are taken, and the one log
   * that claims the next slot (by advancing {@code written}) is the only one to write it.
   */
  private static final class Buffer {

    final long[] times;
    final AtomicInteger written;

    Buffer(long[] times, int written) {
      this.times = times;
      this.written = new AtomicInteger(written);
    }
  }
}
