package dev.bulwark.tck;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Renews a set of leases a few times per lease, as the engine's renewer does for a running call or
 * a queued request, and records what the store reported lost and the longest time a lease went
 * without renewal, bounded from above: from the start of one renewal call (or from when the leases
 * were taken) to the reply of the next. A test whose premise "renewed in time" did not hold on a
 * stalled machine can tell from it.
 */
final class LeaseKeeper implements AutoCloseable {

  private final BulwarkStore store;
  private final List<Lease> leases;
  private final long periodNanos;
  private final Thread thread;
  private final List<Lease> lost = new ArrayList<>();
  private long longestGapNanos;
  private long previousStart;
  private RuntimeException failure;
  private volatile boolean stopped;

  /**
   * Renews {@code leases}, taken no earlier than {@code sinceNanos} (System.nanoTime), once right
   * away on the caller's thread, then every quarter of {@code lease} until closed.
   */
  LeaseKeeper(BulwarkStore store, List<Lease> leases, Duration lease, long sinceNanos) {
    this.store = store;
    this.leases = List.copyOf(leases);
    this.periodNanos = lease.toNanos() / 4;
    this.previousStart = sinceNanos;
    renewOnce();
    this.thread = new Thread(this::renewUntilStopped, "tck-lease-keeper");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void renewOnce() {
    long start = System.nanoTime();
    List<Lease> reported = store.renew(leases);
    long replied = System.nanoTime();
    synchronized (this) {
      lost.addAll(reported);
      longestGapNanos = Math.max(longestGapNanos, replied - previousStart);
      previousStart = start;
    }
  }

  private void renewUntilStopped() {
    try {
      while (!stopped) {
        TimeUnit.NANOSECONDS.sleep(periodNanos);
        renewOnce();
      }
    } catch (InterruptedException e) {
      // stopped
    } catch (RuntimeException e) {
      synchronized (this) {
        failure = e;
      }
    }
  }

  /** Stops renewing; returns once the last renewal call has ended. */
  @Override
  public void close() {
    // not interrupted: a renewal call in flight ends normally, the sleep is short
    stopped = true;
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      throw new AssertionError("a renewal call did not end within 10 s");
    }
    synchronized (this) {
      if (failure != null) {
        throw failure;
      }
    }
  }

  /** Every lease a renewal reported lost, in the order reported. */
  synchronized List<Lease> lost() {
    return List.copyOf(lost);
  }

  /** The longest time a lease may have gone without renewal so far. */
  synchronized Duration longestGap() {
    return Duration.ofNanos(longestGapNanos);
  }
}
