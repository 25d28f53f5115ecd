package dev.bulwark.core.chain;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;

/**
 * A permit with nothing to give back: a rate-limit grant, or a call {@code fail-open} let through.
 */
final class NoPermit implements LockPermit {

  /** What a rate-limit grant holds: nothing to give back. */
  static final NoPermit INSTANCE = new NoPermit();

  /** What a call the {@code fail-open} policy let through holds: it was not granted. */
  static final NoPermit PASSED_THROUGH = new NoPermit();

  @Override
  public String name() {
    return "";
  }

  @Override
  public String key() {
    return "";
  }

  @Override
  public LockMode mode() {
    return LockMode.READ;
  }

  @Override
  public long fencingToken() {
    return 0;
  }

  @Override
  public void close() {}
}
