package dev.bulwark.core.lease;

import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import dev.bulwark.core.waiting.Waiters;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PartialRenewalException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the leases of running calls alive: one daemon thread per engine renews, in one batch per
 * tick, every lease that has used a third of its length, so a live call never loses its permit and
 * a dead JVM's permits expire after one lease. The tick follows the shortest lease in use (a tenth
 * of it, between {@link #MIN_TICK_MILLIS} and {@link #MAX_TICK_MILLIS}), so a renewal that fails is
 * tried several times again before the lease can run out.
 */
public final class LeaseRenewer implements AutoCloseable {

  private static final BulwarkLog LOG = BulwarkLog.of(LeaseRenewer.class);

  static final long MAX_TICK_MILLIS = 100;
  static final long MIN_TICK_MILLIS = 10;

  /** A lease of a running call and where to report that the store lost it. */
  record Tracked(Lease lease, LimitEvents events, long renewEveryNanos, long[] renewedAt) {}

  private final BulwarkStore store;

  /** Told of a queued request whose lease was lost, so its waiter asks rather than waits on. */
  private final Waiters waiters;

  private final Map<Long, Tracked> held = new ConcurrentHashMap<>();

  /** Requests of {@link #held} whose release is on its way. */
  private final Set<Long> releasing = ConcurrentHashMap.newKeySet();

  private final ScheduledExecutorService timer;
  private long tickMillis = Long.MAX_VALUE; // guarded by this
  private ScheduledFuture<?> ticking; // guarded by this
  private boolean failing; // renewer thread only

  public LeaseRenewer(BulwarkStore store, Waiters waiters) {
    this.store = store;
    this.waiters = waiters;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "bulwark-lease-renewer");
              thread.setDaemon(true);
              return thread;
            });
    tickFor(MAX_TICK_MILLIS * 10);
  }

  /** The tick that sustains a lease of {@code leaseMillis}. */
  static long tickMillisFor(long leaseMillis) {
    return Math.max(MIN_TICK_MILLIS, Math.min(MAX_TICK_MILLIS, leaseMillis / 10));
  }

  /**
   * Makes the tick short enough for leases of {@code leaseMillis}; called when a limit is built.
   */
  public synchronized void tickFor(long leaseMillis) {
    long wanted = tickMillisFor(leaseMillis);
    if (wanted >= tickMillis || timer.isShutdown()) {
      return;
    }
    if (ticking != null) {
      ticking.cancel(false);
    }
    tickMillis = wanted;
    ticking = timer.scheduleWithFixedDelay(this::renewDue, wanted, wanted, TimeUnit.MILLISECONDS);
  }

  /** The current tick, in milliseconds. */
  public synchronized long tickMillis() {
    return tickMillis;
  }

  /**
   * Keeps {@code lease} alive from now on, its age counted from {@code askedAt} ({@link
   * System#nanoTime()}), when its request was sent: the store starts a lease on its own clock at
   * some moment between the request's sending and its answer's arrival, so only the sending is sure
   * not to come after it. Counted from the answer's arrival, a slow answer (a commit or a reply
   * held up on a busy machine) would put off the first renewal by as long, past the lease's end.
   */
  void track(Lease lease, LimitEvents events, long askedAt) {
    long every = TimeUnit.MILLISECONDS.toNanos(lease.leaseMillis()) / 3;
    held.putIfAbsent(lease.requestId(), new Tracked(lease, events, every, new long[] {askedAt}));
  }

  void untrack(long requestId) {
    held.remove(requestId);
    releasing.remove(requestId);
  }

  /**
   * The lease's call ended and its release is on its way: it is renewed until the release is
   * answered (a release that waits in a busy batch queue must not find the lease run out), but the
   * store no longer holding it is the release's to report, not a lease lost by a running call.
   */
  void releasing(long requestId) {
    if (held.containsKey(requestId)) {
      releasing.add(requestId);
    }
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
    List<Lease> lost;
    Set<Long> notRenewed = Set.of();
    PartialRenewalException partial = null;
    try {
      lost = store.renew(leases);
    } catch (PartialRenewalException e) {
      // part of the store answered: what it renewed is renewed, the rest is tried next tick
      lost = e.lost();
      notRenewed = new HashSet<>();
      for (Lease lease : e.notRenewed()) {
        notRenewed.add(lease.requestId());
      }
      partial = e;
    } catch (RuntimeException e) {
      // nothing was marked renewed: every due lease is tried again at the next tick
      warnOncePerOutage(e);
      return;
    }
    for (Tracked tracked : due) {
      if (!notRenewed.contains(tracked.lease().requestId())) {
        tracked.renewedAt()[0] = now;
      }
    }
    for (Lease lease : lost) {
      Tracked tracked = held.remove(lease.requestId());
      if (releasing.remove(lease.requestId())) {
        continue; // released meanwhile, or about to be told by its release
      }
      waiters.askStore(lease.requestId());
      if (tracked != null) {
        tracked.events().leaseLost(lease.key());
        LOG.warn(LogMessage.LEASE_LOST, lease.kind(), lease.name());
      }
    }
    if (partial != null) {
      warnOncePerOutage(partial);
    } else {
      failing = false;
    }
  }

  /** One warning per outage: the store logs its own state, and ticks come often. */
  private void warnOncePerOutage(RuntimeException e) {
    LOG.warnOnce(!failing, LogMessage.RENEWAL_FAILING, e);
    failing = true;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
