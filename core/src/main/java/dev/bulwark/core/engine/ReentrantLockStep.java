package dev.bulwark.core.engine;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;

/**
 * Lets a nested call on the same thread, name and key run under the lock the thread already holds
 * when that covers the requested mode, instead of queueing behind itself; a READ holder asking for
 * WRITE fails at once rather than deadlock.
 */
final class ReentrantLockStep implements LimitStep {

  private final LimitStep next;
  private final String name;

  ReentrantLockStep(LimitStep next, String name) {
    this.next = next;
    this.name = name;
  }

  @Override
  public LockPermit acquire(String key, LockMode mode, long maxWaitNanos) {
    LockPermit held = ThreadLocks.held(name, key);
    if (held == null) {
      return next.acquire(key, mode, maxWaitNanos);
    }
    if (!held.mode().covers(mode)) {
      throw new IllegalStateException(
          "Lock '"
              + name
              + "'"
              + (key.isEmpty() ? "" : " key '" + key + "'")
              + " is held for READ by this thread; upgrading to WRITE would deadlock");
    }
    Reentered nested = new Reentered(held);
    ThreadLocks.push(nested);
    return nested;
  }

  /** A nested acquisition under a lock the thread already holds: closing it releases nothing. */
  private static final class Reentered extends ForwardingPermit {

    private boolean closed;

    Reentered(LockPermit outer) {
      super(outer);
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        ThreadLocks.pop(this);
      }
    }
  }
}
