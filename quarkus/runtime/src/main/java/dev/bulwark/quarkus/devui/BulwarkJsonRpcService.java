package dev.bulwark.quarkus.devui;

import dev.bulwark.cdi.BulwarkRuntime;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * The Dev UI's live data: the page calls these over JSON-RPC (on a worker thread, since reading a
 * shared store blocks).
 */
public class BulwarkJsonRpcService {

  @Inject BulwarkRuntime runtime;
  @Inject Instance<LockKeysSeen> keysSeen;

  /** Every limit with its effective values, where each came from, and its state in the store. */
  public LimitsPage getLimits() {
    return reader().page();
  }

  /** One key of a lock, for a key the page was given (a store cannot list a lock's keys). */
  public LockKeyView inspectLockKey(String lock, String key) {
    return reader().lockKey(lock, key);
  }

  private LimitsReader reader() {
    return new LimitsReader(runtime.engine(), keysSeen.isResolvable() ? keysSeen.get() : null);
  }
}
