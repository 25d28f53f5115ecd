package dev.bulwark.core.local;

/**
 * The local store's clock: monotonic like {@link System#nanoTime()}, but counted from the epoch so
 * that fixed windows align to wall-clock seconds and minutes as they do on a shared store.
 */
final class LocalClock {

  private static final long OFFSET = System.currentTimeMillis() * 1_000_000L - System.nanoTime();

  private LocalClock() {}

  static long nowNanos() {
    return OFFSET + System.nanoTime();
  }
}
