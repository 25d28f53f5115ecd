package dev.bulwark.core.local;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bulkheads of one JVM: a count of holders and a FIFO queue per name. A release hands its permit
 * straight to the head of the queue, so a woken waiter never competes with a newcomer.
 */
final class LocalPermits implements PermitStore {

  private final Map<String, Bulkhead> bulkheads = new ConcurrentHashMap<>();
  private final GrantListener listener;

  LocalPermits(GrantListener listener) {
    this.listener = listener;
  }

  @Override
  public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
    return bulkhead(spec).acquire(spec.limit(), requestId, mayQueue);
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
  public void release(PermitSpec spec, long requestId) {
    long next = bulkhead(spec).release();
    if (next != 0) {
      listener.granted(next, 0);
    }
  }

  /** Holders of {@code name} right now, for tests and diagnostics. */
  int holders(String name) {
    Bulkhead bulkhead = bulkheads.get(name);
    return bulkhead == null ? 0 : bulkhead.held;
  }

  private Bulkhead bulkhead(PermitSpec spec) {
    Bulkhead bulkhead = bulkheads.get(spec.name());
    return bulkhead != null
        ? bulkhead
        : bulkheads.computeIfAbsent(spec.name(), n -> new Bulkhead());
  }

  /** One name's holders and queue; the set of names is fixed by the definitions, so it stays. */
  private static final class Bulkhead {
    private int held;
    private final LinkedHashSet<Long> queue = new LinkedHashSet<>();

    synchronized Grant acquire(int limit, long requestId, boolean mayQueue) {
      if (held < limit && queue.isEmpty()) {
        held++;
        return Grant.GRANTED;
      }
      if (!mayQueue) {
        return Grant.REJECTED;
      }
      queue.add(requestId);
      return Grant.QUEUED;
    }

    synchronized Grant poll(long requestId) {
      return queue.contains(requestId) ? Grant.QUEUED : Grant.GRANTED;
    }

    synchronized Grant cancel(long requestId) {
      return queue.remove(requestId) ? Grant.REJECTED : Grant.GRANTED;
    }

    /** Returns the request the permit was handed to, or 0 when it went back to the pool. */
    synchronized long release() {
      if (queue.isEmpty()) {
        held--;
        return 0;
      }
      Long next = queue.iterator().next();
      queue.remove(next);
      return next;
    }
  }
}
