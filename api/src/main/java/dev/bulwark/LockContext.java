package dev.bulwark;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The locks held by the current thread, innermost last. A method guarded by {@link DistributedLock}
 * reads its fencing token here and passes it to the downstream it writes to.
 */
public final class LockContext {

  private static final ThreadLocal<Deque<LockPermit>> HELD =
      ThreadLocal.withInitial(ArrayDeque::new);

  private LockContext() {}

  /** The innermost lock the current thread holds, if any. */
  public static Optional<LockPermit> current() {
    return Optional.ofNullable(HELD.get().peekLast());
  }

  /**
   * The fencing token of the innermost lock the current thread holds.
   *
   * @throws IllegalStateException when the thread holds no lock
   */
  public static long fencingToken() {
    return current()
        .orElseThrow(
            () -> new IllegalStateException("The current thread holds no distributed lock"))
        .fencingToken();
  }

  /** The lock of {@code name} and {@code key} the current thread already holds, if any. */
  public static Optional<LockPermit> held(String name, String key) {
    for (LockPermit permit : HELD.get()) {
      if (permit.key().equals(key) && permit.name().equals(name)) {
        return Optional.of(permit);
      }
    }
    return Optional.empty();
  }

  /** Called by the engine when the current thread starts holding {@code permit}. */
  public static void push(LockPermit permit) {
    HELD.get().addLast(permit);
  }

  /** Called by the engine when the current thread stops holding {@code permit}. */
  public static void pop(LockPermit permit) {
    HELD.get().removeLastOccurrence(permit);
  }
}
