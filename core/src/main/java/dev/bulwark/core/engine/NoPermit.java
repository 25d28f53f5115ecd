package dev.bulwark.core.engine;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;

/** What a call holds when the {@code fail-open} policy let it through unguarded. */
final class NoPermit implements LockPermit {

  static final NoPermit INSTANCE = new NoPermit();

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
