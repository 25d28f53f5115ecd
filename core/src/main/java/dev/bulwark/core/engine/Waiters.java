package dev.bulwark.core.engine;

import dev.bulwark.spi.GrantListener;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The queued requests of this JVM by request id: the single {@link GrantListener} every store
 * reports hand-overs to. A request registers before it asks the store, so no grant can arrive
 * unseen.
 */
public final class Waiters implements GrantListener {

  private final Map<Long, GrantSignal> waiting = new ConcurrentHashMap<>();

  /** How many queued requests wait per group (limit and lock key). */
  private final Map<String, Integer> perGroup = new ConcurrentHashMap<>();

  void register(GrantSignal signal) {
    signal.registered();
    waiting.put(signal.requestId, signal);
  }

  /** Counts a registered request among its group's waiters, once the store queued it. */
  void queued(GrantSignal signal) {
    String group = signal.group();
    signal.countedIn = group;
    perGroup.merge(group, 1, Integer::sum);
  }

  void unregister(GrantSignal signal) {
    waiting.remove(signal.requestId, signal);
    String group = signal.countedIn;
    if (group != null) {
      signal.countedIn = null;
      perGroup.computeIfPresent(group, (g, count) -> count == 1 ? null : count - 1);
    }
  }

  /**
   * How many of this JVM's queued requests wait on the same limit (and lock key) as {@code signal}.
   */
  int inGroupOf(GrantSignal signal) {
    String group = signal.countedIn;
    return group == null ? 1 : perGroup.getOrDefault(group, 1);
  }

  @Override
  public void granted(long requestId, long fencingToken) {
    GrantSignal signal = waiting.get(requestId);
    if (signal != null) {
      signal.signal(fencingToken);
    }
  }

  /** Every waiter that trusted the store's wake-ups looks again: one may have been lost. */
  @Override
  public void wakeUpsChanged() {
    for (GrantSignal signal : waiting.values()) {
      signal.nudge(false);
    }
  }

  /** The store no longer knows this queued request (its lease was lost): its waiter asks. */
  void askStore(long requestId) {
    GrantSignal signal = waiting.get(requestId);
    if (signal != null) {
      signal.nudge(true);
    }
  }

  /** How many requests of this JVM are queued right now. */
  public int size() {
    return waiting.size();
  }
}
