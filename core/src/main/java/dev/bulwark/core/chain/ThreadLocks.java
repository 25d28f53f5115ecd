package dev.bulwark.core.chain;

import dev.bulwark.LockContext;
import dev.bulwark.LockPermit;
import dev.bulwark.engine.HeldLocks;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * The locks each thread holds, innermost last: the engine pushes and pops them ({@link
 * LockContextLink}), {@link LockContext} reads them through {@link HeldLocks}.
 */
public final class ThreadLocks implements HeldLocks {

  private static final ThreadLocal<Deque<LockPermit>> HELD =
      ThreadLocal.withInitial(ArrayDeque::new);

  /** For {@link java.util.ServiceLoader}; every instance reads the same per-thread stacks. */
  public ThreadLocks() {}

  public static void push(LockPermit permit) {
    HELD.get().addLast(permit);
  }

  public static void pop(LockPermit permit) {
    HELD.get().removeLastOccurrence(permit);
  }

  /** The lock of {@code name} and {@code key} the current thread holds, or null. */
  static LockPermit held(String name, String key) {
    Iterator<LockPermit> newestFirst = HELD.get().descendingIterator();
    while (newestFirst.hasNext()) {
      LockPermit permit = newestFirst.next();
      if (permit.key().equals(key) && permit.name().equals(name)) {
        return permit;
      }
    }
    return null;
  }

  @Override
  public LockContext.Held innermost() {
    return view(HELD.get().peekLast());
  }

  @Override
  public LockContext.Held find(String name, String key) {
    return view(held(name, key));
  }

  private static LockContext.Held view(LockPermit permit) {
    return permit == null
        ? null
        : new LockContext.Held(permit.name(), permit.key(), permit.mode(), permit.fencingToken());
  }
}
