package dev.bulwark.core.engine;

import dev.bulwark.LockContext;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.StoreException;
import java.util.Optional;

/**
 * One family of keyed read-write locks. A granted lock is pushed on the thread's {@link
 * LockContext} so the guarded code can read its fencing token; a nested request on the same name
 * and key runs under the lock already held when that covers it.
 */
public final class KeyedLock {

  private final LockDefinition definition;
  private final LockSpec spec;
  private final LockStore store;
  private final StoreAccess access;
  private final KeyedLock fallback;
  private final long waitNanos;
  private final LimitStats stats = new LimitStats();

  KeyedLock(LockDefinition definition, StoreAccess access, KeyedLock fallback) {
    this.definition = definition;
    this.spec =
        new LockSpec(
            definition.name(), definition.lease().toMillis(), definition.waitingTime().toMillis());
    this.store = access.store().locks();
    this.access = access;
    this.fallback = fallback;
    this.waitNanos = definition.waitingTime().toNanos();
  }

  public LockDefinition definition() {
    return definition;
  }

  public LimitStats stats() {
    return stats;
  }

  /** Takes {@code key} in {@code mode}, waiting up to the definition's waiting time. */
  public LockPermit lock(String key, LockMode mode) {
    return lock(key, mode, waitNanos);
  }

  /** Takes {@code key} in {@code mode} only if it is free now. */
  public Optional<LockPermit> tryLock(String key, LockMode mode) {
    try {
      return Optional.of(lock(key, mode, 0));
    } catch (LockTimeoutException e) {
      return Optional.empty();
    }
  }

  private LockPermit lock(String key, LockMode mode, long maxWaitNanos) {
    Optional<LockPermit> held = LockContext.held(definition.name(), key);
    if (held.isPresent()) {
      return reenter(held.get(), mode);
    }
    HeldLock lock = new HeldLock(RequestIds.next(), key, mode);
    Grant grant;
    try {
      grant = QueuedRequest.acquire(lock, maxWaitNanos, access, stats);
    } catch (StoreException e) {
      return access.fallBackLocally(e, stats, definition.name(), "Lock " + describe(key))
          ? fallback.lock(key, mode, maxWaitNanos)
          : NoPermit.INSTANCE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stats.onRejected();
      throw new LockTimeoutException(
          definition.name(), key, "Interrupted while waiting for lock " + describe(key), e);
    }
    if (!grant.isGranted()) {
      stats.onRejected();
      throw new LockTimeoutException(
          definition.name(),
          key,
          "Lock "
              + describe(key)
              + " ("
              + mode
              + ") not granted"
              + (maxWaitNanos > 0 ? " within " + definition.waitingTime().toMillis() + " ms" : ""));
    }
    stats.onGranted();
    lock.fencingToken = grant.fencingToken();
    lock.keepAlive();
    LockContext.push(lock);
    return lock;
  }

  private LockPermit reenter(LockPermit held, LockMode requested) {
    if (!held.mode().covers(requested)) {
      throw new IllegalStateException(
          "Lock "
              + describe(held.key())
              + " is held for READ by this thread; upgrading to WRITE would deadlock");
    }
    Reentered nested = new Reentered(held);
    LockContext.push(nested);
    return nested;
  }

  private String describe(String key) {
    return "'" + definition.name() + "'" + (key.isEmpty() ? "" : " key '" + key + "'");
  }

  /** A lock held by this thread; also the signal its thread parks on while queued. */
  private final class HeldLock extends HeldGrant implements LockPermit {
    private final String key;
    private final LockMode mode;
    private long fencingToken;

    HeldLock(long requestId, String key, LockMode mode) {
      super(
          requestId,
          access.renewer(),
          stats,
          Lease.Kind.LOCK,
          spec.name(),
          key,
          spec.leaseMillis());
      this.key = key;
      this.mode = mode;
    }

    @Override
    public String name() {
      return definition.name();
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public LockMode mode() {
      return mode;
    }

    @Override
    public long fencingToken() {
      return fencingToken;
    }

    @Override
    public void close() {
      LockContext.pop(this);
      releaseOnce();
    }

    @Override
    void releaseInStore() {
      store.release(spec, key, requestId);
    }

    @Override
    String describe() {
      return "lock " + KeyedLock.this.describe(key);
    }

    @Override
    public Grant request(boolean mayQueue) {
      return store.acquire(spec, key, mode, requestId, mayQueue);
    }

    @Override
    public Grant poll() {
      return store.poll(spec, key, requestId);
    }

    @Override
    public Grant cancel() {
      return store.cancel(spec, key, requestId);
    }
  }

  /** A nested acquisition under a lock the thread already holds: closing it releases nothing. */
  private static final class Reentered implements LockPermit {
    private final LockPermit outer;
    private boolean closed;

    Reentered(LockPermit outer) {
      this.outer = outer;
    }

    @Override
    public String name() {
      return outer.name();
    }

    @Override
    public String key() {
      return outer.key();
    }

    @Override
    public LockMode mode() {
      return outer.mode();
    }

    @Override
    public long fencingToken() {
      return outer.fencingToken();
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        LockContext.pop(this);
      }
    }
  }
}
