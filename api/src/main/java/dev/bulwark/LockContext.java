package dev.bulwark;

import dev.bulwark.engine.HeldLocks;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * What the current thread holds of {@link DistributedLock}s, for the guarded code to read: a method
 * passes {@link #fencingToken()} to the downstream it writes to. Read-only: the engine keeps the
 * thread's locks itself, so user code cannot corrupt them.
 */
public final class LockContext {

  private static final HeldLocks HELD = find();

  private LockContext() {}

  /** The innermost lock the current thread holds, if any. */
  public static Optional<Held> current() {
    return Optional.ofNullable(HELD.innermost());
  }

  /** Whether the current thread holds any distributed lock. */
  public static boolean isHeld() {
    return HELD.innermost() != null;
  }

  /** Whether the current thread holds lock {@code name} on {@code key} (any mode). */
  public static boolean isHeld(String name, String key) {
    return HELD.find(name, key) != null;
  }

  /**
   * The fencing token of the innermost lock the current thread holds.
   *
   * @throws IllegalStateException when the thread holds no lock
   */
  public static long fencingToken() {
    Held held = HELD.innermost();
    if (held == null) {
      throw new IllegalStateException("The current thread holds no distributed lock");
    }
    return held.fencingToken();
  }

  /**
   * A lock the current thread holds.
   *
   * @param key empty for a lock without {@link LockKey}
   * @param fencingToken see {@link LockPermit#fencingToken()}; 0 when the {@code fail-open} policy
   *     let the call through without a lock
   */
  public record Held(String name, String key, LockMode mode, long fencingToken) {}

  private static HeldLocks find() {
    for (ClassLoader loader :
        new ClassLoader[] {
          LockContext.class.getClassLoader(), Thread.currentThread().getContextClassLoader()
        }) {
      if (loader != null) {
        Optional<HeldLocks> found = ServiceLoader.load(HeldLocks.class, loader).findFirst();
        if (found.isPresent()) {
          return found.get();
        }
      }
    }
    return HeldLocks.NONE;
  }
}
