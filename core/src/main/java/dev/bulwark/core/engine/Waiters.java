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

  void register(GrantSignal signal) {
    signal.registered();
    waiting.put(signal.requestId, signal);
  }

  void unregister(GrantSignal signal) {
    waiting.remove(signal.requestId, signal);
  }

  @Override
  public void granted(long requestId, long fencingToken) {
    GrantSignal signal = waiting.get(requestId);
    if (signal != null) {
      signal.signal(fencingToken);
    }
  }

  /** How many requests of this JVM are queued right now. */
  public int size() {
    return waiting.size();
  }
}
