package dev.bulwark.core.engine;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import java.util.Objects;
import java.util.Optional;

/**
 * One family of keyed read-write locks, built once per name: the entry to its chain. The guarded
 * code reads a granted lock's fencing token through {@code LockContext}.
 */
public final class KeyedLock {

  private final LockDefinition definition;
  private final LimitStep chain;
  private final LimitEvents events;
  private final LockSpec spec;
  private final LockStore store;
  private final long waitNanos;

  KeyedLock(
      LockDefinition definition,
      LimitStep chain,
      LimitEvents events,
      LockSpec spec,
      LockStore store) {
    this.definition = definition;
    this.chain = chain;
    this.events = events;
    this.spec = spec;
    this.store = store;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public LockDefinition definition() {
    return definition;
  }

  /** The writer, readers and queue of {@code key} in the store now (every JVM that shares it). */
  public LockKeySnapshot inspect(String key) {
    return Inspection.read(events, () -> store.inspect(spec, key));
  }

  public LimitStats stats() {
    return events.stats();
  }

  /** Takes {@code key} in {@code mode}, waiting up to the definition's waiting time. */
  public LockPermit lock(String key, LockMode mode) {
    return lock(key, mode, waitNanos);
  }

  /** Takes {@code key} in {@code mode}, waiting up to {@code maxWaitNanos}. */
  public LockPermit lock(String key, LockMode mode, long maxWaitNanos) {
    return chain.acquire(Objects.requireNonNull(key, "key"), mode, maxWaitNanos);
  }

  /** Takes {@code key} in {@code mode} only if it is free now. */
  public Optional<LockPermit> tryLock(String key, LockMode mode) {
    try {
      return Optional.of(lock(key, mode, 0));
    } catch (LockTimeoutException e) {
      return Optional.empty();
    }
  }
}
