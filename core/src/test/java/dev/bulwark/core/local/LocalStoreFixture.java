package dev.bulwark.core.local;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.tck.StoreFixture;

/**
 * The local store under the contract suites: each opened store is a JVM of its own that shares
 * nothing with the others, its leases never expire, and it tells the listener of a hand-over within
 * the call that grants it.
 */
final class LocalStoreFixture extends StoreFixture {

  @Override
  protected BulwarkStore openStore(GrantListener listener) {
    return new LocalStore(listener);
  }

  @Override
  public boolean jvmsShareState() {
    return false;
  }

  @Override
  public long clockNanos() {
    return LocalClock.nowNanos();
  }

  @Override
  public String storeName() {
    return "the local store";
  }
}
