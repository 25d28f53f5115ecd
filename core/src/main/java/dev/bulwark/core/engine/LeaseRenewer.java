package dev.bulwark.core.engine;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.Lease;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the leases of running calls alive: one daemon thread per engine renews, in one batch per
 * tick, every lease that has used a third of its length, so a live call never loses its permit and
 * a dead JVM's permits expire after one lease.
 */
public final class LeaseRenewer implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(LeaseRenewer.class.getName());

  /** A lease of a running call and what to tell when the store has lost it. */
  record Tracked(Lease lease, LimitStats stats, long renewEveryNanos, long[] renewedAt) {}

  private final BulwarkStore store;
  private final Map<Long, Tracked> held = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer;
  private boolean failing; // renewer thread only

  public LeaseRenewer(BulwarkStore store, long tickMillis) {
    this.store = store;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "bulwark-lease-renewer");
              thread.setDaemon(true);
              return thread;
            });
    timer.scheduleWithFixedDelay(this::renewDue, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
  }

  void track(Lease lease, LimitStats stats) {
    long every = TimeUnit.MILLISECONDS.toNanos(lease.leaseMillis()) / 3;
    held.putIfAbsent(
        lease.requestId(), new Tracked(lease, stats, every, new long[] {System.nanoTime()}));
  }

  void untrack(long requestId) {
    held.remove(requestId);
  }

  /** How many leases are being kept alive. */
  public int size() {
    return held.size();
  }

  /** Renews every lease that is due; runs on the renewer thread, and in tests directly. */
  public void renewDue() {
    long now = System.nanoTime();
    List<Tracked> due = new ArrayList<>();
    for (Tracked tracked : held.values()) {
      if (now - tracked.renewedAt()[0] >= tracked.renewEveryNanos()) {
        due.add(tracked);
      }
    }
    if (due.isEmpty()) {
      return;
    }
    List<Lease> leases = new ArrayList<>(due.size());
    due.forEach(t -> leases.add(t.lease()));
    try {
      List<Lease> lost = store.renew(leases);
      for (Tracked tracked : due) {
        tracked.renewedAt()[0] = now;
      }
      for (Lease lease : lost) {
        Tracked tracked = held.remove(lease.requestId());
        if (tracked != null) {
          tracked.stats().onLeaseLost();
          LOG.warning(
              () ->
                  "Bulwark: the store no longer holds "
                      + lease.kind()
                      + " '"
                      + lease.name()
                      + "' of a running call (its lease ran out); the call goes on unguarded");
        }
      }
      failing = false;
    } catch (RuntimeException e) {
      // one warning per outage: the store logs its own state, and a tick comes every 100 ms
      LOG.log(
          failing ? Level.FINE : Level.WARNING,
          "Bulwark: lease renewal failed; retrying on every tick until the store answers",
          e);
      failing = true;
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
