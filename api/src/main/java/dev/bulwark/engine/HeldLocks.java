package dev.bulwark.engine;

import dev.bulwark.LockContext;

/**
 * Where {@link LockContext} reads the current thread's locks: the engine provides the one
 * implementation (found through {@link java.util.ServiceLoader}). It only answers questions; taking
 * and giving back locks stays inside the engine.
 */
public interface HeldLocks {

  /** No engine on the class path: no thread holds a lock. */
  HeldLocks NONE =
      new HeldLocks() {
        @Override
        public LockContext.Held innermost() {
          return null;
        }

        @Override
        public LockContext.Held find(String name, String key) {
          return null;
        }
      };

  /** The innermost lock of the current thread, or null. */
  LockContext.Held innermost();

  /** The current thread's lock of {@code name} and {@code key}, or null. */
  LockContext.Held find(String name, String key);
}
