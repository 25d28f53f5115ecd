package dev.bulwark.core.outage;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.spi.BulwarkStore;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Asks a store that calls found unreachable, once per its reconnect interval, whether it answers
 * again, and ends the outage when it does: readiness and the outage events then follow the store
 * itself, not the next guarded call (an instance taken out of service gets no calls). It runs on a
 * thread of its own, started at the first outage, so a probe that waits out a connect timeout
 * delays no call and no waiter's timer; between outages it does nothing.
 */
public final class OutageProbe implements AutoCloseable {

  private static final BulwarkLog LOG = BulwarkLog.of(OutageProbe.class);

  private final BulwarkStore store;
  private final long intervalNanos;
  private ScheduledThreadPoolExecutor thread; // guarded by this
  private boolean probing; // guarded by this: a probe is scheduled or running
  private boolean closed; // guarded by this

  public OutageProbe(BulwarkStore store) {
    this.store = store;
    this.intervalNanos = Math.max(1, store.reconnectInterval().toNanos());
  }

  /** Probes until {@code watch} has no outage any more; a no-op while already probing. */
  synchronized void start(OutageWatch watch) {
    if (closed || probing) {
      return;
    }
    probing = true;
    schedule(watch);
  }

  private void schedule(OutageWatch watch) {
    if (thread == null) {
      thread =
          new ScheduledThreadPoolExecutor(
              1,
              task -> {
                Thread t = new Thread(task, "bulwark-store-probe");
                t.setDaemon(true);
                return t;
              });
    }
    thread.schedule(() -> probe(watch), intervalNanos, TimeUnit.NANOSECONDS);
  }

  private void probe(OutageWatch watch) {
    if (watch.current().isPresent()) {
      try {
        store.probe();
        watch.answered();
      } catch (RuntimeException e) {
        LOG.debug("Bulwark: the store does not answer yet", e);
      }
    }
    synchronized (this) {
      // checked under the lock start() takes: an outage that begins now finds probing false
      if (closed || watch.current().isEmpty()) {
        probing = false;
      } else {
        schedule(watch);
      }
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (thread != null) {
      thread.shutdownNow();
    }
  }
}
