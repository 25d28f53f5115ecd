package dev.bulwark.core.local;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bulkheads of one JVM: a count of holders and a FIFO queue per name. A release hands its permit
 * straight to the head of the queue, and newcomers queue behind waiters, so a woken waiter never
 * competes with a newcomer.
 */
final class LocalPermits implements PermitStore {

  private final Map<String, Bulkhead> bulkheads = new ConcurrentHashMap<>();
  private final GrantListener listener;

  LocalPermits(GrantListener listener) {
    this.listener = listener;
  }

  @Override
  public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
    return bulkhead(spec).acquire(spec.limit(), requestId, mayQueue, listener);
  }

  @Override
  public Grant poll(PermitSpec spec, long requestId) {
    return bulkhead(spec).poll(requestId);
  }

  @Override
  public Grant cancel(PermitSpec spec, long requestId) {
    return bulkhead(spec).cancel(requestId);
  }

  @Override
  public boolean release(PermitSpec spec, long requestId) {
    return bulkhead(spec).release(spec.limit(), requestId, listener);
  }

  @Override
  public BulkheadSnapshot inspect(PermitSpec spec) {
    Bulkhead bulkhead = bulkheads.get(spec.name());
    if (bulkhead == null) {
      return new BulkheadSnapshot(spec.name(), spec.limit(), List.of(), 0);
    }
    synchronized (bulkhead) {
      return new BulkheadSnapshot(
          spec.name(),
          spec.limit(),
          bulkhead.holders.holders(LocalClock.nowNanos()).stream()
              .map(h -> LocalStore.holder(h.requestId(), h.sinceNanos()))
              .toList(),
          bulkhead.queue.size(),
          bulkhead.queue.entrySet().stream()
              .limit(BulkheadSnapshot.WAITING_LISTED)
              .map(waiter -> LocalStore.holder(waiter.getKey(), waiter.getValue()))
              .toList());
    }
  }

  /** Holders of {@code name} right now, for tests and diagnostics. */
  int holders(String name) {
    Bulkhead bulkhead = bulkheads.get(name);
    return bulkhead == null ? 0 : bulkhead.held.get();
  }

  private Bulkhead bulkhead(PermitSpec spec) {
    Bulkhead bulkhead = bulkheads.get(spec.name());
    return bulkhead != null
        ? bulkhead
        : bulkheads.computeIfAbsent(spec.name(), n -> new Bulkhead(spec.limit()));
  }

  /**
   * One name's holders and queue; the set of names is fixed by the definitions, so it stays. While
   * nobody queues, permits are taken and returned by compare-and-set alone; the queue and its
   * hand-overs are guarded by the monitor. A waiter publishes itself ({@code queued}) before it
   * re-checks the count, and a releaser returns its permit before it reads {@code queued}, so one
   * of the two always sees the other: no permit is stranded beside a waiter. Holders are also known
   * by id, so that a release of a request that holds nothing (twice, or while queued) changes
   * nothing.
   */
  private static final class Bulkhead {
    private final AtomicInteger held = new AtomicInteger();
    private final HolderSet holders;
    private volatile int queued;

    /** Queued request ids, in arrival order, each with when it queued (local clock nanos). */
    private final LinkedHashMap<Long, Long> queue = new LinkedHashMap<>();

    Bulkhead(int limit) {
      this.holders = new HolderSet(limit);
    }

    Grant acquire(int limit, long requestId, boolean mayQueue, GrantListener listener) {
      if (queued == 0 && tryTake(limit)) {
        holders.add(requestId, limit, LocalClock.nowNanos());
        return Grant.GRANTED;
      }
      synchronized (this) {
        if (queue.isEmpty() && tryTake(limit)) {
          holders.add(requestId, limit, LocalClock.nowNanos());
          return Grant.GRANTED;
        }
        if (!mayQueue) {
          return Grant.REJECTED;
        }
        queue.putIfAbsent(requestId, LocalClock.nowNanos());
        queued = queue.size();
        // a permit returned between the failed take and the publication above goes to the head
        handOver(limit, requestId, listener);
        return queue.containsKey(requestId) ? Grant.QUEUED : Grant.GRANTED;
      }
    }

    synchronized Grant poll(long requestId) {
      return queue.containsKey(requestId) ? Grant.QUEUED : Grant.GRANTED;
    }

    synchronized Grant cancel(long requestId) {
      if (queue.remove(requestId) == null) {
        return Grant.GRANTED;
      }
      queued = queue.size();
      return Grant.REJECTED;
    }

    boolean release(int limit, long requestId, GrantListener listener) {
      if (!holders.remove(requestId)) {
        return false;
      }
      held.decrementAndGet();
      if (queued > 0) {
        synchronized (this) {
          handOver(limit, 0, listener);
        }
      }
      return true;
    }

    /** Grants free permits to the head of the queue; {@code self} is told by its return value. */
    private void handOver(int limit, long self, GrantListener listener) {
      while (!queue.isEmpty() && tryTake(limit)) {
        Long next = queue.keySet().iterator().next();
        holders.add(next, limit, LocalClock.nowNanos());
        queue.remove(next);
        queued = queue.size();
        if (next != self) {
          listener.granted(next, 0);
        }
      }
    }

    private boolean tryTake(int limit) {
      for (int current = held.get(); current < limit; current = held.get()) {
        if (held.compareAndSet(current, current + 1)) {
          return true;
        }
      }
      return false;
    }
  }
}
